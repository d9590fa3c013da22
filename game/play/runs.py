"""Runs as MCP resources: the run list, one run (summary, director trajectory, event log), the live log
tail and the skill documents; and the notifications that tell a listening client they changed.

URIs:
- ``arena://runs``: the current run and the recorded ones (``saves/trajectories/*.jsonl``), newest first;
- ``arena://runs/{run_id}``: header, summary (live for the current run), the director's decisions and
  mode switches, and the run's event log (``saves/runs/<run>.events.jsonl``); ``current`` is
  the run in progress. It is "updated" on every director decision of the current run;
- ``arena://runs/current/log``: the last lines of the game's log, "updated" on every line;
- ``arena://skills/{name}``: the skill documents ``read_skill`` returns.

Data owned by the main thread (the live world, the journal) is read there, through the main-loop queue.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loguru import logger

from coreai.commands import CallOnMain
from coreai.errors import CoreAIError, McpError
from coreai.mainloop import MainLoopQueue
from coreai.mcp.logtail import LogTail
from coreai.mcp.resources import ResourceSpec, UpdateHub
from coreai.mcp.skills import SkillLibrary
from coreai.paths import saves_path
from game.director.trajectory import DecisionRecord
from game.headless_runs.trajectory_file import TrajectoryWriter, read_trajectory
from game.play.controller import PlayController

log = logger.bind(feature="play", trace_id="-")
RUNS = "arena://runs"
CURRENT = "arena://runs/current"
LOG = "arena://runs/current/log"
MAX_LISTED = 50
MAX_DECISIONS = 200
_RUN_ID = re.compile(r"^[A-Za-z0-9_\-]{1,120}$")


def trajectories_dir() -> Path:
    return saves_path("trajectories", "x").parent


def events_path(trajectory: Path) -> Path:
    """``saves/runs/<run>.events.jsonl``: the run's event log (beside, not among, the trajectories)."""
    return saves_path("runs", trajectory.stem + ".events.jsonl")


def inputs_path(trajectory: Path) -> Path:
    """``saves/runs/<run>.inputs.jsonl``: what was pressed, for replay and fork."""
    return saves_path("runs", trajectory.stem + ".inputs.jsonl")


class EventLogFile:
    """The current run's journal rows, appended to ``<run>.events.jsonl`` (flushed once a frame)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._buffer: list[str] = []
        self.error: str | None = None

    def add(self, row: dict[str, Any]) -> None:
        self._buffer.append(json.dumps(row, separators=(",", ":")))

    def flush(self) -> None:
        if not self._buffer or self.error is not None:
            return
        lines, self._buffer = self._buffer, []
        try:
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
        except OSError as exc:
            self.error = str(exc)
            log.error("event log {} disabled: {}", self.path, exc)


class NotifyingTrajectory:
    """A ``TrajectorySink`` that writes through to the run's file and says that the run changed."""

    def __init__(self, inner: TrajectoryWriter, changed: Callable[[], None]) -> None:
        self.inner = inner
        self.changed = changed

    def decision(self, record: DecisionRecord) -> None:
        self.inner.decision(record)
        self.changed()

    def mode(self, tick: int, mode: str) -> None:
        self.inner.mode(tick, mode)
        self.changed()


def _decision_row(d: DecisionRecord) -> dict[str, Any]:
    return {
        "seq": d.seq,
        "status": d.status,
        "backend": d.backend,
        "request_tick": d.request_tick,
        "applied_tick": d.applied_tick,
        "intensity": round(d.intensity, 3),
        "pacing": d.pacing,
        "plan": d.plan,
        "clamped": d.clamped,
        "error": d.error,
    }


class RunResources:
    def __init__(
        self,
        controller: PlayController,
        queue: MainLoopQueue,
        hub: UpdateHub,
        live_summary: Callable[[], dict[str, Any] | None],
        skills: SkillLibrary | None = None,
        record_inputs: bool = True,
    ) -> None:
        self.controller = controller
        self.record_inputs = record_inputs  # with MCP on: what was pressed, for replay and fork
        self.queue = queue
        self.hub = hub
        self.live_summary = live_summary
        self.skills = skills or SkillLibrary()
        self.current: Path | None = None  # the current run's trajectory file
        self.events: EventLogFile | None = None
        self.inputs: EventLogFile | None = None  # <run>.inputs.jsonl: what replay and fork feed back
        self.tail = LogTail(on_line=lambda: hub.updated(LOG))

    # ------------------------------------------------------------------ the game's side (main thread)
    def start_run(self, trajectory: TrajectoryWriter | None) -> None:
        self.frame()
        self.current = trajectory.path if trajectory is not None else None
        self.events = EventLogFile(events_path(self.current)) if self.current is not None else None
        keep = self.current is not None and self.record_inputs
        self.inputs = EventLogFile(inputs_path(self.current)) if keep and self.current else None
        self.controller.journal.on_row = self.events.add if self.events is not None else None
        self.controller.inputs.on_row = self.inputs.add if self.inputs is not None else None
        self.run_changed()

    def run_changed(self) -> None:
        self.hub.updated(CURRENT)
        if self.current is not None:
            self.hub.updated(f"{RUNS}/{self.current.stem}")

    def frame(self) -> None:
        for log_file in (self.events, self.inputs):
            if log_file is not None:
                log_file.flush()

    # ------------------------------------------------------------------ reads (worker threads)
    def _on_main(self, fn: Callable[[], Any], label: str) -> Any:
        return self.queue.call(CallOnMain(fn=fn, label=label, agent="mcp"), 5.0)

    def list_runs(self) -> dict[str, Any]:
        files = sorted(trajectories_dir().glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
        runs = []
        for path in files[:MAX_LISTED]:
            try:
                traj = read_trajectory(path)
            except CoreAIError as exc:
                runs.append({"id": path.stem, "error": str(exc)[:200]})
                continue
            h = traj.header
            row: dict[str, Any] = {"id": path.stem, "seed": h.seed, "mode": h.mode, "bot": h.bot}
            row["decisions"] = len(traj.decisions)
            if traj.summary is not None:
                s = traj.summary
                row["summary"] = {
                    "seconds": s.seconds,
                    "waves": s.waves_reached,
                    "kills": s.kills,
                    "died": s.died,
                }
            runs.append(row)
        current = self.current.stem if self.current is not None else None
        return {"current": current, "runs": runs, "read": f"{RUNS}/{{id}}"}

    def run(self, run_id: str) -> dict[str, Any]:
        live = run_id == "current" or (self.current is not None and run_id == self.current.stem)
        path = self.current if live else trajectories_dir() / f"{run_id}.jsonl"
        if path is None:
            raise McpError("no run with a trajectory is in progress", status=404)
        if not live and (not _RUN_ID.match(run_id) or not path.is_file()):
            raise McpError(f"unknown run '{run_id[:80]}'; see {RUNS}", status=404)
        traj = read_trajectory(path)
        out: dict[str, Any] = {
            "id": path.stem,
            "live": live,
            "header": traj.header.model_dump(mode="json", exclude={"memory"}),
            "summary": traj.summary.model_dump(mode="json") if traj.summary is not None else None,
            "trajectory": {
                "decisions": [_decision_row(d) for d in traj.decisions[-MAX_DECISIONS:]],
                "decisions_total": len(traj.decisions),
                "modes": [m.model_dump(mode="json") for m in traj.modes],
            },
        }
        if live:
            out["summary"] = self._on_main(self.live_summary, "runs:summary")
            rows = self._on_main(lambda: list(self.controller.journal.rows), "runs:events")
        else:
            rows = _read_rows(events_path(path))
        out["events"] = {"total": len(rows), "list": rows[-500:]}
        return out

    def log(self) -> str:
        return "\n".join(self.tail.tail(200))

    def skill(self, name: str) -> str:
        return self.skills(name)

    def specs(self) -> list[ResourceSpec]:
        return [
            ResourceSpec(
                RUNS, "runs", "The current run's id and the recorded runs, newest first.", self.list_runs
            ),
            ResourceSpec(
                f"{RUNS}/{{run_id}}",
                "run",
                "One run: header, summary, the director's decisions (trajectory) and the event log. "
                "'current' is the run in progress; updated on each director decision.",
                self.run,
            ),
            ResourceSpec(
                LOG,
                "log",
                "The last 200 lines of the game's log; updated on each line.",
                self.log,
                "text/plain",
            ),
            ResourceSpec(
                "arena://skills/{name}",
                "skill",
                "A skill document (the same text read_skill returns): mcp, lua_modding, director.",
                self.skill,
                "text/markdown",
            ),
        ]


def _read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows
