"""Director trajectories on disk: one JSONL file per run under ``saves/trajectories/<run>.jsonl``.

Line 1 is a ``header`` (seed, bot, mode, seconds, respawn, the memory notes the director started with).
Then one ``decision`` line per plan that came back (``game.director.trajectory.DecisionRecord``: the
snapshot the source saw, the prompt hash, the raw reply, the validated plan, what was clamped, the commands
applied, the request and applied ticks), a ``mode`` line per mode switch (F6, ``ModeRecord``), and last the
run's ``summary``. ``TrajectoryWriter`` writes the file; ``MemoryTrajectory`` keeps the same records in
memory (for replay checks). Both are the director's ``TrajectorySink``.

Lines are appended and flushed as they happen, so a crash loses at most the line being written; the reader
skips a torn last line and names any other unreadable line (``CorruptSaveError``, the file is left alone).
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from loguru import logger
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.paths import saves_path
from coreai.persist import loads_json
from coreai.validation import reason
from game.director.trajectory import MAX_REPLAY_SECONDS, MAX_TICK, DecisionRecord
from game.headless import RunSummary
from game.sim.config import FINAL_WAVE
from game.zoo import MODELS

VERSION = 2  # 2: Director 2 (danger knob, spawn causes); older files are refused, not misreplayed
_log = logger.bind(feature="director", trace_id="-")


class TrajectoryHeader(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["header"] = "header"
    version: Literal[2] = 2  # VERSION; another version is refused (``read_trajectory``)
    run_id: str = Field(max_length=200)
    seed: int = Field(ge=0, le=2**63 - 1)
    bot: str | None = Field(max_length=200)  # a built-in player model (game.zoo); None: a human (no replay)
    mode: str = Field(min_length=1, max_length=64)
    seconds: float = Field(ge=0, le=MAX_REPLAY_SECONDS, allow_inf_nan=False)  # 0: open-ended play
    respawn: bool = True
    final_wave: int | None = Field(
        FINAL_WAVE, ge=1, le=1000
    )  # surviving it won the run (--waves); None: endless
    memory: list[str] = Field(default_factory=list, max_length=64)
    events: list[str] = Field(
        default_factory=list, max_length=256, description="named events registered at the start"
    )
    created: float = Field(default_factory=time.time, allow_inf_nan=False)

    @field_validator("bot")
    @classmethod
    def _known_bot(cls, v: str | None) -> str | None:
        """Only the game's own models: a file never names code to import (outside models are not recorded)."""
        if v is not None and v not in MODELS:
            names = ", ".join(repr(n) for n in MODELS)
            raise PydanticCustomError("literal_error", "must be one of {expected}", {"expected": names})
        return v


class ModeRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["mode"] = "mode"
    tick: int = Field(ge=0, le=MAX_TICK)
    mode: str = Field(min_length=1, max_length=64)


class SummaryRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["summary"] = "summary"
    summary: RunSummary


def new_run_path(seed: int, mode: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    safe_mode = "".join(c if c.isalnum() or c in "-_" else "_" for c in mode)[:32]
    return saves_path("trajectories", f"{stamp}-s{seed}-{safe_mode}-{secrets.token_hex(3)}.jsonl")


class TrajectoryWriter:
    """Appends records; a write failure is logged once and disables the writer (the game keeps running)."""

    def __init__(self, path: Path, header: TrajectoryHeader) -> None:
        self.path = path
        self.error: str | None = None
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            path.write_text("", encoding="utf-8")
        except OSError as exc:
            self._fail(exc)
        self._append(header)

    def decision(self, record: DecisionRecord) -> None:
        self._append(record)

    def mode(self, tick: int, mode: str) -> None:
        self._append(ModeRecord(tick=tick, mode=mode))

    def summary(self, summary: RunSummary) -> None:
        self._append(SummaryRecord(summary=summary))

    def _append(self, record: BaseModel) -> None:
        if self.error is not None:
            return
        line = record.model_dump_json() + "\n"
        try:
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        self.error = str(PersistenceError(str(self.path), f"trajectory write failed: {exc}"))
        _log.error("{}", self.error)


class MemoryTrajectory:
    def __init__(self) -> None:
        self.decisions: list[DecisionRecord] = []
        self.modes: list[ModeRecord] = []

    def decision(self, record: DecisionRecord) -> None:
        self.decisions.append(record)

    def mode(self, tick: int, mode: str) -> None:
        self.modes.append(ModeRecord(tick=tick, mode=mode))


@dataclass
class Trajectory:
    header: TrajectoryHeader
    decisions: list[DecisionRecord] = field(default_factory=list)
    modes: list[ModeRecord] = field(default_factory=list)
    summary: RunSummary | None = None


_RECORDS: dict[str, type[BaseModel]] = {
    "header": TrajectoryHeader,
    "decision": DecisionRecord,
    "mode": ModeRecord,
    "summary": SummaryRecord,
}


def _refuse_old_version(path: Path, data: Any) -> None:
    """A header of another format version is refused with what to do, not as a corrupt line."""
    if isinstance(data, dict) and data.get("type") == "header" and data.get("version") != VERSION:
        raise PersistenceError(
            str(path),
            f"this trajectory is format {data.get('version')!r}, recorded by an older director; this game "
            f"replays format {VERSION} only (the director changed, so the old run cannot be reproduced): "
            "record the run again",
        )


def read_trajectory(path: Path) -> Trajectory:
    """Parse a trajectory file; raises ``PersistenceError`` (missing) or ``CorruptSaveError`` (bad line)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise PersistenceError(str(path), f"cannot read trajectory: {exc}") from exc
    records: list[BaseModel] = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data: Any = None
        try:
            data = loads_json(line)
            if i == 1:
                _refuse_old_version(path, data)
            kind = _RECORDS[data["type"]] if isinstance(data, dict) and data.get("type") in _RECORDS else None
            if kind is None:
                raise ValueError(
                    f"unknown record type {data.get('type') if isinstance(data, dict) else data!r}"
                )
            records.append(kind.model_validate(data))
        except (json.JSONDecodeError, ValueError, ValidationError) as exc:
            if i == len(lines) and records:
                _log.warning("{}: skipping torn last line {}", path, i)
                break
            what = f" ({data['type']})" if isinstance(data, dict) and data.get("type") in _RECORDS else ""
            raise CorruptSaveError(
                str(path), f"line {i} is not a valid trajectory record{what}: {reason(exc)}"
            ) from None
    if not records or not isinstance(records[0], TrajectoryHeader):
        raise CorruptSaveError(str(path), "the first line is not a trajectory header")
    traj = Trajectory(header=records[0])
    for rec in records[1:]:
        if isinstance(rec, DecisionRecord):
            traj.decisions.append(rec)
        elif isinstance(rec, ModeRecord):
            traj.modes.append(rec)
        elif isinstance(rec, SummaryRecord):
            traj.summary = rec.summary
    return traj
