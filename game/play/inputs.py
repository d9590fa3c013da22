"""What the agent (or a human, in a window under MCP) did, tick by tick, so a run can be replayed or forked.

``InputLog`` records the ``PlayerInput`` of each tick when it differs from the last one, and the
between-wave actions (upgrade picks, purchases, next wave) with the tick they happened at; rows go to
``saves/runs/<run>.inputs.jsonl``. ``InputFeed`` plays such rows back: the input in force at a
tick, and the between-wave actions due at it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import astuple
from pathlib import Path
from typing import Any

from game.sim.player import IDLE, PlayerInput


def _row(tick: int, inp: PlayerInput) -> dict[str, Any]:
    mx, my, ax, ay, shoot, dash = astuple(inp)
    return {"tick": tick, "in": [mx, my, ax, ay, int(shoot), int(dash)]}  # exact: JSON floats round-trip


def _input(values: list[Any]) -> PlayerInput:
    mx, my, ax, ay, shoot, dash = values
    return PlayerInput(float(mx), float(my), float(ax), float(ay), bool(shoot), bool(dash))


class InputLog:
    """Rows go to ``on_row`` only (the run's file; None: not recorded), nothing is kept in memory."""

    def __init__(self, on_row: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.on_row = on_row
        self._last: PlayerInput = IDLE

    def reset(self) -> None:
        self._last = IDLE

    def _add(self, row: dict[str, Any]) -> None:
        if self.on_row is not None:
            self.on_row(row)

    def tick(self, tick: int, inp: PlayerInput) -> None:
        if inp != self._last:
            self._last = inp
            self._add(_row(tick, inp))

    def action(self, tick: int, kind: str, value: str) -> None:
        """A between-wave action: ``pick`` (an upgrade key), ``buy`` (an item id), ``next_wave``."""
        self._add({"tick": tick, kind: value})


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and isinstance(row.get("tick"), int):
            rows.append(row)
    return rows


class InputFeed:
    """Recorded rows played back: ``input(tick)`` for each stepped tick, ``actions(tick)`` between waves."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        self._inputs = sorted((r["tick"], _input(r["in"])) for r in rows if "in" in r)
        self._actions = [r for r in rows if "in" not in r]
        self._i = 0
        self._current = IDLE
        self._done_actions = 0

    def input(self, tick: int) -> PlayerInput:
        while self._i < len(self._inputs) and self._inputs[self._i][0] <= tick:
            self._current = self._inputs[self._i][1]
            self._i += 1
        return self._current

    def actions(self, tick: int) -> list[dict[str, Any]]:
        """The between-wave actions recorded at ``tick`` not taken yet, in order."""
        due = []
        while self._done_actions < len(self._actions) and self._actions[self._done_actions]["tick"] <= tick:
            due.append(self._actions[self._done_actions])
            self._done_actions += 1
        return due
