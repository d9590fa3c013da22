"""The Analyzer at game over: the analysis of the run, on the game-over screen at once.

The analysis is the rules' reading of the run ledger (``rules.rules_analysis``: what hurt most, the
accuracy, what to try next). The Analyzer model is not asked: on the talk evaluation's ten game-overs the
bundled 135M model's rewrite never once kept the run's numbers true (the talk guard replaced it 10 of 10
times), so it added a wait and nothing the player read. ``RunAnalysis`` keeps the face the game-over screen
expects (``text``, ``status``, ``busy``, ``pump``, ``close``), so a model that can add a claim-checked
sentence about the run can come back here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from game.analysis.ledger import RunLedger
from game.analysis.rules import rules_analysis
from game.headless import RunSummary

if TYPE_CHECKING:
    from game.ai.session import AiSession

Source = Literal["model", "rules"]
NOTE = "rules-based: read from this run's numbers"


class RunAnalysis:
    def __init__(self, session: AiSession, summary: RunSummary, ledger: RunLedger) -> None:
        self.session = session
        shop = session.shop
        purse = shop.shop.purse if shop is not None else None
        coins = {"balance": purse.balance, "earned": purse.earned, "spent": purse.spent} if purse else {}
        self.fallback = rules_analysis(summary, ledger, coins)
        self.source: Source = "rules"
        self.note = NOTE
        self.turn = None  # no model turn (see the module's doc)

    def pump(self) -> None:
        """Main thread, once per frame."""
        self.session.runtime.drain()

    def text(self) -> str:
        return self.fallback

    def status(self) -> str:
        """The line under the heading: who wrote it."""
        return self.note

    @property
    def busy(self) -> bool:
        return False

    def close(self) -> None:
        return None
