"""Game sounds: the world's per-tick events mapped to arcade's bundled ``:resources:`` sounds (Kenney, CC0).

Every sound is a WAV, the one format pyglet decodes by itself: a stock Linux machine has no ffmpeg or
GStreamer, and pyglet then cannot load an mp3 or an Ogg file at all ("No decoders available"). The music is a
short mono loop shipped in ``assets/music`` (``scripts/make_music.py`` made it from arcade's mp3 at dev time).

Thousands of hits per second must not become thousands of sounds, so every cue has a minimum interval and a
cap on how often it may play per second; louder volume stands in for "many at once". Sound is off when
the game runs headless (``ARCADE_HEADLESS``) or muted; a missing audio device only disables sound (logged
once).
Sounds load lazily on the main thread, the first time they are needed. The options screen sets the
master, music and sound-effect volumes (``set_volumes``); a cue plays at cue volume x master x sfx, the
music loop at master x music.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from loguru import logger

from coreai.paths import shipped_dir
from game.sim import events as ev

log = logger.bind(feature="game", trace_id=None)


@dataclass(frozen=True)
class Cue:
    resource: str
    volume: float
    min_interval: float  # seconds between two plays of this cue
    max_per_second: int


CUES: dict[str, Cue] = {
    "shoot": Cue(":resources:sounds/laser2.wav", 0.10, 0.07, 10),
    "hit": Cue(":resources:sounds/hit3.wav", 0.12, 0.06, 10),
    "kill": Cue(":resources:sounds/hit5.wav", 0.18, 0.05, 12),
    "elite_kill": Cue(":resources:sounds/explosion2.wav", 0.35, 0.15, 4),
    "hurt": Cue(":resources:sounds/hurt3.wav", 0.45, 0.20, 4),
    "death": Cue(":resources:sounds/gameover3.wav", 0.6, 1.0, 1),
    "xp": Cue(":resources:sounds/coin1.wav", 0.10, 0.06, 8),
    "heal": Cue(":resources:sounds/upgrade2.wav", 0.35, 0.2, 3),
    "level_up": Cue(":resources:sounds/upgrade1.wav", 0.45, 0.3, 2),
    "wave": Cue(":resources:sounds/secret2.wav", 0.45, 0.5, 1),
    "boss": Cue(":resources:sounds/explosion1.wav", 0.5, 0.5, 1),
    "dash": Cue(":resources:sounds/phaseJump1.wav", 0.25, 0.15, 4),
    "pick": Cue(":resources:sounds/upgrade4.wav", 0.45, 0.2, 3),
    "ui": Cue(":resources:sounds/coin2.wav", 0.3, 0.05, 10),
}


class RateLimiter:
    """Per-cue throttle: at least ``min_interval`` apart and at most ``max_per_second`` in any second."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: dict[str, float] = {}
        self._window: dict[str, list[float]] = {}

    def allow(self, name: str, cue: Cue) -> bool:
        now = self._clock()
        last = self._last.get(name)
        if last is not None and now - last < cue.min_interval:
            return False
        recent = [t for t in self._window.get(name, ()) if now - t < 1.0]
        if len(recent) >= cue.max_per_second:
            self._window[name] = recent
            return False
        recent.append(now)
        self._window[name] = recent
        self._last[name] = now
        return True


def headless() -> bool:
    return os.environ.get("ARCADE_HEADLESS", "").strip().lower() not in ("", "0", "false", "no")


Player = Callable[[str, float], None]  # (cue name, volume) -> play it
# looped under the title and the arena; cut from arcade's funkyrobot.mp3 (assets/music/README.md)
MUSIC = str(shipped_dir("assets", "music") / "arena_loop.wav")


def bundled_sounds() -> dict[str, str]:
    """Every sound the game plays, by name: the cues and the music (the decoder test loads each)."""
    return {**{name: cue.resource for name, cue in CUES.items()}, "music": MUSIC}


class Audio:
    """Plays cues for simulation events. ``player`` is injectable (tests record what would be played)."""

    def __init__(
        self,
        *,
        muted: bool = False,
        player: Player | None = None,
        clock: Callable[[], float] = time.monotonic,
        master_volume: float = 1.0,
        sfx_volume: float = 1.0,
        music_volume: float = 0.5,
    ) -> None:
        self.enabled = player is not None or not (muted or headless())
        self.master_volume = master_volume
        self.sfx_volume = sfx_volume
        self.music_volume = music_volume
        self._music: Any = None  # the looping pyglet player
        self._music_broken = headless() or player is not None
        self.limiter = RateLimiter(clock)
        self.player: Player = player or self._play_arcade
        self._sounds: dict[str, Any] = {}
        self._broken = False
        self.played = 0
        self.suppressed = 0

    # ------------------------------------------------------------------ public
    def toggle_mute(self) -> bool:
        self.enabled = not self.enabled
        if self._music is not None:
            self._music.volume = self.music_level if self.enabled else 0.0
        return self.enabled

    @property
    def music_level(self) -> float:
        return self.master_volume * self.music_volume

    def set_volumes(self, *, master: float, music: float, sfx: float) -> None:
        self.master_volume, self.music_volume, self.sfx_volume = master, music, sfx
        if self._music is not None:
            try:
                self._music.volume = self.music_level if self.enabled else 0.0
            except Exception as exc:
                log.warning("music volume not set: {}", exc)

    def start_music(self) -> None:
        """Loop the music (main thread); a missing decoder or device only leaves the game without music."""
        if self._music is not None or self._music_broken:
            return
        try:
            import arcade

            sound = arcade.load_sound(MUSIC, streaming=True)
            level = self.music_level if self.enabled else 0.0
            self._music = arcade.play_sound(sound, volume=level, loop=True)
        except Exception as exc:
            self._music_broken = True
            log.info("no music: {}", exc)

    def play(self, name: str, weight: float = 1.0) -> bool:
        """Play a cue unless muted or throttled; ``weight`` (how many happened at once) raises the volume."""
        if not self.enabled or self._broken:
            return False
        cue = CUES[name]
        if not self.limiter.allow(name, cue):
            self.suppressed += 1
            return False
        boost = 1.0 + 0.35 * math.log2(max(1.0, weight))
        volume = min(1.0, cue.volume * boost * self.master_volume * self.sfx_volume)
        if volume <= 0.0:
            return False
        self.player(name, volume)
        self.played += 1
        return True

    def on_events(self, events: Iterable[ev.Event], is_boss: Callable[[str], bool]) -> None:
        """React to one tick's events (call once per simulated tick); ``is_boss`` is the world's prefab
        registry's answer (``world.prefabs.is_boss``)."""
        if not self.enabled:
            return
        kills = elite_kills = hits = shots = 0
        for e in events:
            if isinstance(e, ev.ShotFired):
                shots += e.count
            elif isinstance(e, ev.EnemyHit):
                hits += e.count
            elif isinstance(e, ev.EnemyKilled):
                if e.elite or is_boss(e.prefab):
                    elite_kills += 1
                else:
                    kills += 1
            elif isinstance(e, ev.PlayerDamaged):
                self.play("hurt")
            elif isinstance(e, ev.PlayerDied):
                self.play("death")
            elif isinstance(e, ev.PickupCollected):
                self.play("heal" if e.kind == "health" else "xp")
            elif isinstance(e, ev.LevelUp):
                self.play("level_up")
            elif isinstance(e, ev.WaveStarted):
                self.play("wave")
            elif isinstance(e, ev.Dashed):
                self.play("dash")
            elif isinstance(e, ev.EnemySpawned) and is_boss(e.prefab):
                self.play("boss")
        if shots:
            self.play("shoot", shots)
        if elite_kills:
            self.play("elite_kill", elite_kills)
        if kills:
            self.play("kill", kills)
        elif hits:
            self.play("hit", hits)

    # ------------------------------------------------------------------ arcade backend
    def _play_arcade(self, name: str, volume: float) -> None:
        try:
            import arcade

            sound = self._sounds.get(name)
            if sound is None:
                sound = self._sounds[name] = arcade.load_sound(CUES[name].resource)
            arcade.play_sound(sound, volume=volume)
        except Exception as exc:  # no audio device, missing codec...: play on in silence
            self._broken = True
            log.warning("sound disabled: {}", exc)
