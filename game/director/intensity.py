"""Player intensity, after Left 4 Dead's AI director (Booth, GDC 2009): one number in 0..1 for how stressed
the player is right now.

It rises with damage taken (scaled by max HP, so a 10-point hit means more at 50 HP max than at 200), with
kills close to the player, and with near-death moments; a death pins it to 1. It decays over time, but not
while the player is engaged: an enemy within ``telemetry.ENGAGE_RADIUS``, or a hit in the last
``ENGAGE_GRACE_S`` seconds. The pacing state machine (``pacing.py``) and the evaluation's flow band read it.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.sim import events as ev

DAMAGE_GAIN = 1.6  # intensity per max-HP of damage taken: a 10 HP hit at 100 max HP adds 0.16
NEAR_KILL_GAIN = 0.012  # per enemy killed within combat.NEAR_PLAYER of the player
NEAR_DEATH_HP = 0.25  # a hit that leaves the player at or below this HP fraction is a near-death moment
NEAR_DEATH_GAIN = 0.25
NEAR_DEATH_REARM_HP = 0.5  # the next near-death moment counts once HP climbed back above this
DECAY_PER_S = 0.05  # a full bar drains in 20 s once the player is out of combat
ENGAGE_GRACE_S = 1.5  # a hit keeps the player "engaged" (no decay) for this long


class IntensityTracker:
    """Per-tick L4D intensity. ``frozen`` tells whether the last update skipped the decay."""

    def __init__(self) -> None:
        self.value = 0.0
        self.frozen = False
        self._since_hit = ENGAGE_GRACE_S
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
                gain += DAMAGE_GAIN * e.amount / max(1.0, max_hp)
                if self._near_death_armed and e.hp_after / max(1.0, max_hp) <= NEAR_DEATH_HP:
                    gain += NEAR_DEATH_GAIN
                    self._near_death_armed = False
            elif isinstance(e, ev.EnemyKilled) and e.near_player:
                gain += NEAR_KILL_GAIN
            elif isinstance(e, ev.PlayerDied):
                self.value = 1.0
                self._near_death_armed = True
                self._since_hit = 0.0
                self.frozen = True
                return self.value
        if hp_fraction > NEAR_DEATH_REARM_HP:
            self._near_death_armed = True
        self._since_hit = 0.0 if hit else self._since_hit + dt
        self.frozen = engaged or self._since_hit < ENGAGE_GRACE_S
        value = self.value + gain
        if not self.frozen:
            value -= DECAY_PER_S * dt
        self.value = 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
        return self.value
