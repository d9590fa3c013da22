"""Coins, the currency the Merchant takes: every kill pays a bounty of its kind's base score / 10 coins
(at least 1), three times that for an elite.

So a grunt pays 1, a tank 4, a spitter 2, the boss 100. Score multipliers (a mod's kill streak, the
director's score_mult) do not inflate coins. The purse belongs to one run (a new run starts at 0); it reads
the tick's events and never touches the world, so the simulation stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from game.sim import events as ev

COINS_PER_SCORE = 0.1
ELITE_MULT = 3


def bounties(base_scores: Mapping[str, int]) -> dict[str, int]:
    """Coins per kill of each prefab from its base score."""
    return {name: max(1, int(score * COINS_PER_SCORE)) for name, score in base_scores.items()}


def bounty(kill: ev.EnemyKilled, rates: Mapping[str, int]) -> int:
    """What one kill pays (an unknown prefab pays from the kill's own score)."""
    base = rates.get(kill.prefab)
    if base is None:
        return max(1, int(kill.score * COINS_PER_SCORE))
    return base * (ELITE_MULT if kill.elite else 1)


@dataclass
class Purse:
    rates: dict[str, int] = field(default_factory=dict)  # prefab -> coins per kill (``bounties``)
    balance: int = 0
    earned: int = 0
    spent: int = 0

    def collect(self, events: Iterable[ev.Event]) -> int:
        """Add the bounties of this tick's kills; returns the coins gained."""
        gained = sum(bounty(e, self.rates) for e in events if isinstance(e, ev.EnemyKilled))
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
