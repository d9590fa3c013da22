"""Helpers of the Lua tests: a manual clock, writing a mod folder, advancing the game loop."""

from __future__ import annotations

import os
from pathlib import Path

from coreai.lua.manager import ModManager


class ManualClock:
    """A monotonic clock the test advances by hand (revert windows, fault windows, polls)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


MANIFEST = """name = "{name}"
version = "{version}"
author = "tests"
description = "test mod"
api_version = 1
entry = "main.lua"
"""


def write_mod(
    root: Path, name: str, main: str, *, version: str = "1.0.0", files: dict[str, str] | None = None
) -> Path:
    """Write a mod folder; bumps mtimes so a poll always sees the change."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mod.toml").write_text(MANIFEST.format(name=name, version=version), encoding="utf-8")
    (folder / "main.lua").write_text(main, encoding="utf-8")
    for rel, text in (files or {}).items():
        (folder / rel).write_text(text, encoding="utf-8")
    stamp = (max((p.stat().st_mtime_ns for p in folder.iterdir()), default=0) + 10_000_000) / 1e9
    for p in folder.iterdir():
        os.utime(p, (stamp, stamp))
    return folder


def run_ticks(manager: ModManager, clock: ManualClock, seconds: float, dt: float = 1 / 60) -> None:
    """Advance the game loop: ``tick(dt)`` with the clock moving in step."""
    for _ in range(round(seconds / dt)):
        clock.advance(dt)
        manager.tick(dt)
