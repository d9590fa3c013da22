"""The Analyzer at game over: a short analysis of the run, streamed onto the game-over screen.

Grounded talk (``game.talk``): the rules-based analysis of the run ledger (``rules.rules_analysis``) is the
grounded answer, and the Analyzer model only rephrases it from a tiny prompt (a ``TalkTurn``), so its first
words come within a second or two. The talk guard checks the reply (the worst damage source and the accuracy
kept, no invented numbers, no repetition); a failing reply, a failed model, or no answer within ``[game]
analysis_timeout_s`` shows the rules-based analysis instead, and the status line says why. With the offline
stub the rules-based analysis shows at once. ``pump()`` runs on the main thread each frame: it drains the
main-loop queue and enforces the time limit.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

from game.analysis.ledger import RunLedger
from game.analysis.rules import rules_analysis
from game.headless import RunSummary
from game.talk.analysis import analyzer_grounding
from game.talk.turn import REASON_WORDS, TalkTurn

if TYPE_CHECKING:
    from game.ai.session import AiSession

Source = Literal["model", "rules"]


class RunAnalysis:
    def __init__(self, session: AiSession, summary: RunSummary, ledger: RunLedger) -> None:
        self.session = session
        shop = session.shop
        purse = shop.shop.purse if shop is not None else None
        coins = {"balance": purse.balance, "earned": purse.earned, "spent": purse.spent} if purse else {}
        self.fallback = rules_analysis(summary, ledger, coins)
        self.timeout_s = session.settings.game.analysis_timeout_s
        self.started = time.monotonic()
        self.source: Source = "rules"
        self.note = ""
        self.turn: TalkTurn | None = None
        backend = session.runtime.router.backend_for("Analyzer")
        if backend == "stub":
            self.note = "rules-based (the Analyzer has no model; route it to local or openai)"
            return
        grounding = analyzer_grounding(summary, ledger, coins)
        dec = session.settings.talk.decoding("Analyzer")
        self.source = "model"
        self.turn = TalkTurn(
            session.runtime.tasks,
            session.runtime.events,
            grounding,
            dec,
            deadline_s=min(self.timeout_s, dec.deadline_s),
            scope="analysis",
            priority=5,
            template_first=session.settings.talk.show_template_first,
        )

    def pump(self) -> None:
        """Main thread, once per frame."""
        self.session.runtime.drain()
        self._sync()

    def _sync(self) -> None:
        """Fall back to the rules when the turn ended replaced (the guard, a failure, the deadline)."""
        turn = self.turn
        if turn is None or self.source == "rules":
            return
        state = turn.state  # the turn enforces its deadline (the analysis timeout) itself
        if state == "stopped":
            self._fall_back("the Analyzer stopped")
        elif state == "done" and turn.replaced:
            reasons = turn.verdict.reasons if turn.verdict is not None else ()
            if "late" in reasons:
                self._fall_back(f"no answer within {self.timeout_s:g}s")
            else:
                words = " and ".join(REASON_WORDS.get(r, r) for r in reasons) or "failed the check"
                self._fall_back(f"the Analyzer's rewrite {words}")

    def _fall_back(self, why: str) -> None:
        self.source = "rules"
        self.note = f"rules-based ({why})"

    def text(self) -> str:
        self._sync()
        if self.source == "rules" or self.turn is None:
            return self.fallback
        return self.turn.text().strip()

    def status(self) -> str:
        """The line under the heading: who wrote it, or that it is still coming."""
        self._sync()
        if self.source == "model" and self.turn is not None:
            if self.turn.state == "waiting":
                dots = "." * (1 + int(time.monotonic() * 3) % 3)
                return f"the Analyzer is reading your run{dots}"
            if self.turn.busy:
                if self.turn.template_first:
                    return "rules-based; the Analyzer is rephrasing..."
                return "the Analyzer is writing..."
            if self.turn.replaced:
                return self.note or "rules-based"
            backend = self.turn.result.backend if self.turn.result else "model"
            return self.note or f"by the Analyzer ({backend})"
        return self.note or "rules-based"

    @property
    def busy(self) -> bool:
        return self.source == "model" and self.turn is not None and self.turn.busy

    def close(self) -> None:
        if self.turn is not None and self.turn.busy:
            self.turn.stop()
