"""Player intensity, after Left 4 Dead's AI director (Booth, GDC 2009): one number in 0..1 for how stressed
the player is right now.

It rises with damage taken (scaled by max HP, so a 10-point hit means more at 50 HP max than at 200), with
kills close to the player, and with near-death moments; a death pins it to 1. It decays over time, but not
while the player is engaged: an enemy within ``engage_radius``, or a hit in the last ``engage_grace_s``
seconds. The values are ``[intensity]`` of ``assets/director/tuning.toml``. The pacing state machine
(``pacing.py``) and the evaluation's flow band read it.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.director.tuning import TUNING
from game.sim import events as ev

T = TUNING.intensity


class IntensityTracker:
    """Per-tick L4D intensity. ``frozen`` tells whether the last update skipped the decay."""

    def __init__(self) -> None:
        self.value = 0.0
        self.frozen = False
        self._since_hit = T.engage_grace_s
        self._near_death_armed = True

    def update(
        self, events: Iterable[ev.Event], *, hp_fraction: float, max_hp: float, engaged: bool, dt: float
    ) -> float:
        """Fold one tick in and return the new intensity."""
        gain = 0.0
        hit = False
        for e in events:
            if isinstance(e, ev.PlayerDamaged):
                hit = True
                gain += T.damage_gain * e.amount / max(1.0, max_hp)
                if self._near_death_armed and e.hp_after / max(1.0, max_hp) <= T.near_death_hp:
                    gain += T.near_death_gain
                    self._near_death_armed = False
            elif isinstance(e, ev.EnemyKilled) and e.near_player:
                gain += T.near_kill_gain
            elif isinstance(e, ev.PlayerDied):
                self.value = 1.0
                self._near_death_armed = True
                self._since_hit = 0.0
                self.frozen = True
                return self.value
        if hp_fraction > T.near_death_rearm_hp:
            self._near_death_armed = True
        self._since_hit = 0.0 if hit else self._since_hit + dt
        self.frozen = engaged or self._since_hit < T.engage_grace_s
        value = self.value + gain
        if not self.frozen:
            value -= T.decay_per_s * dt
        self.value = 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
        return self.value
