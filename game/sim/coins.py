"""Coins, the currency the Merchant takes: every kill pays a bounty of its score / 10 coins (at least 1).

So a slime pays 1, a brute 4, an elite three times its kind, a boss 100. The purse belongs to one run (a new
run starts at 0); it reads the tick's events and never touches the world, so the simulation stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.sim import events as ev

COINS_PER_SCORE = 0.1


def bounty(kill: ev.EnemyKilled) -> int:
    """What one kill pays."""
    return max(1, int(kill.score * COINS_PER_SCORE))


@dataclass
class Purse:
    balance: int = 0
    earned: int = 0
    spent: int = 0

    def collect(self, events: Iterable[ev.Event]) -> int:
        """Add the bounties of this tick's kills; returns the coins gained."""
        gained = sum(bounty(e) for e in events if isinstance(e, ev.EnemyKilled))
        self.balance += gained
        self.earned += gained
        return gained

    def can_pay(self, price: int) -> bool:
        return self.balance >= price

    def pay(self, price: int) -> None:
        if price > self.balance:
            raise ValueError(f"cannot pay {price} coins with {self.balance}")
        self.balance -= price
        self.spent += price
