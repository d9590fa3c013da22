"""The Analyzer at game over: a short analysis of the run, streamed onto the game-over screen.

The Analyzer agent gets the run's numbers (``rules.run_facts``) as request instructions, no tools, and
streams its answer. When its backend is the offline stub, when it fails, or when no answer is complete
within ``[game] analysis_timeout_s``, the screen shows the rules-based analysis instead (a long enough
partial answer is kept, marked as cut off). ``pump()`` runs on the main thread each frame: it drains the
main-loop queue (the Analyzer's world-state read goes through it) and enforces the time limit.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Literal

from game.ai.chat import ChatTurn
from game.analysis.ledger import RunLedger
from game.analysis.rules import rules_analysis, run_facts
from game.headless import RunSummary

if TYPE_CHECKING:
    from game.ai.session import AiSession

Source = Literal["model", "rules"]
KEEP_PARTIAL_CHARS = 60
INSTRUCTIONS = (
    "The run just ended. Write the player a short analysis of it in at most three short lines: "
    "1) what hurt most, 2) their accuracy, 3) one concrete thing to try next run. Use only these numbers "
    "(damage_by_source: contact = enemies touching the player, projectile = enemy shots; stood_still_pct = "
    "share of the run the player stood still, walked = distance it moved):\n"
)


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
        self.turn: ChatTurn | None = None
        backend = session.runtime.router.backend_for("Analyzer")
        if backend == "stub":
            self.note = "rules-based (the Analyzer has no model; route it to local or openai)"
            return
        from coreai.requests import AiTaskRequest

        facts = json.dumps(run_facts(summary, ledger, coins), sort_keys=True)
        request = AiTaskRequest(
            role="Analyzer",
            hint="Analyse my run.",
            instructions=INSTRUCTIONS + facts,
            allowed_tools=[],
            cancellation_scope="analysis",
            stream=True,
            priority=5,
        )
        self.source = "model"
        self.turn = ChatTurn(session.runtime.tasks, session.runtime.events, request)

    def pump(self) -> None:
        """Main thread, once per frame."""
        self.session.runtime.drain()
        turn = self.turn
        if turn is None or self.source == "rules":
            return
        state = turn.state
        if state in ("failed", "stopped"):
            self._fall_back(f"the Analyzer {state}: {turn.error[:80]}" if turn.error else f"Analyzer {state}")
        elif state == "done" and not turn.text().strip():
            self._fall_back("the Analyzer gave no text")
        elif turn.busy and time.monotonic() - self.started > self.timeout_s:
            turn.stop()
            partial = turn.text().strip()
            if len(partial) >= KEEP_PARTIAL_CHARS:
                self.note = f"cut off after {self.timeout_s:g}s"
            else:
                self._fall_back(f"no answer within {self.timeout_s:g}s")

    def _fall_back(self, why: str) -> None:
        self.source = "rules"
        self.note = f"rules-based ({why})"

    def text(self) -> str:
        if self.source == "rules" or self.turn is None:
            return self.fallback
        text = self.turn.text().strip()
        return text + (" ..." if self.note.startswith("cut off") else "")

    def status(self) -> str:
        """The line under the heading: who wrote it, or that it is still coming."""
        if self.source == "model" and self.turn is not None:
            if self.turn.state == "waiting":
                dots = "." * (1 + int(time.monotonic() * 3) % 3)
                return f"the Analyzer is reading your run{dots}"
            if self.turn.busy:
                return "the Analyzer is writing..."
            return self.note or f"by the Analyzer ({self.turn.result.backend if self.turn.result else '?'})"
        return self.note or "rules-based"

    @property
    def busy(self) -> bool:
        return self.source == "model" and self.turn is not None and self.turn.busy

    def close(self) -> None:
        if self.turn is not None and self.turn.busy:
            self.turn.stop()
