"""The game's own errors: a branch of the one error tree (``coreai.errors``), for what only the game knows.

::

    CoreAIError (coreai.errors)
    ├── CommandRejected
    │   ├── PurchaseRefused          the Merchant refused a sale; .code (unknown_item, out_of_stock, ...)
    │   └── PlayRefused              an agent's game-time or input call the game cannot do now
    └── UnknownPlayerModel           a bot name that is neither built in nor importable (also a ValueError)
"""

from __future__ import annotations

from coreai.errors import CommandRejected, CoreAIError


class PurchaseRefused(CommandRejected):
    """A refused purchase; ``code`` is stable (unknown_item / out_of_stock / not_enough_coins /
    shop_closed / maxed_out) and ``str()`` is the player-readable reason."""

    def __init__(self, code: str, reason: str, *, item: str = "", trace_id: str | None = None) -> None:
        super().__init__("buy", reason, trace_id=trace_id)
        self.code = code
        self.item = item


class PlayRefused(CommandRejected):
    """An agent's game-time or input call the game cannot do now (dead player, shop closed, pick open)."""

    def __init__(self, command: str, reason: str, *, trace_id: str | None = None) -> None:
        super().__init__(command, reason, trace_id=trace_id)


class UnknownPlayerModel(CoreAIError, ValueError):
    """A player model (bot) name that is neither built in (``game.zoo``) nor an importable
    ``package.module:Factory``; the message lists the known names."""
