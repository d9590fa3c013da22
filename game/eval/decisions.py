"""The decision suite: ask a backend for a plan on each labelled scenario and score its answer (its
pressure, or ``ease`` for a hold that softens the game).

Every reply goes through the director's own pipeline (``parse_reply`` + ``validate_plan``), so a backend
that answers with malformed or hallucinated plans scores ``invalid`` for that scenario, and one that fails
or times out scores ``error``. Each valid plan of a model then meets the guard (``game.director.guard``), as
in the game: the report gives the accuracy raw and guarded. Backends are looked up by name: ``rules`` is
built in; the game registers the LLM backends with ``register_backend(name, factory)``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import get_args

from coreai.errors import SettingsError, ToolArgumentError
from game.director import guard
from game.director.events import EventRegistry
from game.director.rules import RulesSource
from game.director.source import DirectorSituation, PlanReply, PlanRequest, PlanSource
from game.director.validate import parse_reply, validate_plan
from game.eval.scenarios import Answer, Scenario, answer_of
from game.sim.prefabs import PrefabRegistry

BackendFactory = Callable[[], PlanSource]
LABELS: tuple[str, ...] = get_args(Answer)  # what a scenario may expect
ANSWERS: tuple[str, ...] = (*LABELS, "invalid", "error")
_BACKENDS: dict[str, BackendFactory] = {"rules": RulesSource}


def register_backend(name: str, factory: BackendFactory) -> None:
    """Make ``--backend NAME`` available (the factory is called once per evaluation)."""
    _BACKENDS[name] = factory


def backend_names() -> tuple[str, ...]:
    return tuple(_BACKENDS)


def make_backend(name: str) -> PlanSource:
    factory = _BACKENDS.get(name)
    if factory is None:
        raise SettingsError("eval.backend", f"unknown backend '{name}'; known: {', '.join(_BACKENDS)}")
    return factory()


@dataclass(frozen=True)
class DecisionResult:
    scenario: str
    expected: str
    answer: str  # a pressure or "ease" (``answer_of``), "invalid" (rejected by validation) or "error"
    correct: bool
    detail: str
    latency_s: float
    guarded: str = ""  # the answer after the guard ("" = same as ``answer``: it passed, or rules)
    guarded_correct: bool | None = None

    @property
    def final(self) -> str:
        return self.guarded or self.answer


@dataclass(frozen=True)
class DecisionReport:
    backend: str
    results: tuple[DecisionResult, ...]

    @property
    def accuracy(self) -> float:
        return sum(r.correct for r in self.results) / len(self.results) if self.results else 0.0

    @property
    def guarded_accuracy(self) -> float:
        """Accuracy after the guard (``game.director.guard``) replaced the plans that broke a hard rule."""
        ok = [r.correct if r.guarded_correct is None else r.guarded_correct for r in self.results]
        return sum(ok) / len(ok) if ok else 0.0

    @property
    def overridden(self) -> int:
        return sum(1 for r in self.results if r.guarded)

    def confusion(self) -> Counter[tuple[str, str]]:
        return Counter((r.expected, r.answer) for r in self.results)


def situation_for(sc: Scenario, prefabs: Sequence[str], events: Sequence[str]) -> DirectorSituation:
    return DirectorSituation(
        snapshot=sc.snapshot,
        intensity=sc.intensity,
        pacing=sc.pacing,
        pacing_s=sc.pacing_s,
        since_spike_s=sc.since_spike_s,
        since_peak_s=sc.since_peak_s,
        knobs=sc.knobs,
        memory=[],
        prefabs=list(prefabs),
        events=list(events),
    )


def evaluate(
    source: PlanSource,
    scenarios: Sequence[Scenario],
    *,
    timeout_s: float = 60.0,
    progress: Callable[[int, int, str], None] | None = None,
) -> DecisionReport:
    reg = PrefabRegistry.load()
    prefabs = list(reg.regular)
    events = EventRegistry().names()
    results = []
    for i, sc in enumerate(scenarios, start=1):
        req = PlanRequest(
            seq=i,
            trace_id=f"eval-{i:03d}",
            tick=sc.snapshot.tick,
            situation=situation_for(sc, prefabs, events),
        )
        start = time.perf_counter()
        guarded = ""
        try:
            reply = source.request(req).result(timeout=timeout_s)
            if not isinstance(reply, PlanReply):
                raise TypeError(f"source returned {type(reply).__name__}, not PlanReply")
        except Exception as exc:  # a failing backend scores "error"; the suite goes on
            answer, detail = "error", f"{type(exc).__name__}: {exc}"
        else:
            try:
                data = parse_reply(reply.raw, reply.plan, trace_id=req.trace_id)
                vp = validate_plan(data, sc.knobs, prefabs=prefabs, events=events, trace_id=req.trace_id)
                answer, detail = answer_of(vp.plan, sc.knobs), vp.plan.reason
                # the director's own step after validation: the rules source is its own guard
                verdict = None if source.name == RulesSource.name else guard.check(req.situation, vp.plan)
                if verdict is not None:
                    guarded = str(guard.override(req.situation, verdict)["pressure"])
            except ToolArgumentError as exc:
                answer, detail = "invalid", str(exc)
        latency = time.perf_counter() - start
        results.append(
            DecisionResult(
                sc.name,
                sc.expected,
                answer,
                sc.correct(answer),
                detail,
                latency,
                guarded,
                sc.correct(guarded) if guarded else None,
            )
        )
        if progress is not None:
            progress(i, len(scenarios), sc.name)
    return DecisionReport(source.name, tuple(results))


def format_report(report: DecisionReport, *, show_misses: int = 20) -> str:
    n = len(report.results)
    right = sum(r.correct for r in report.results)
    lines = [
        f"Decision suite: backend '{report.backend}', {n} scenarios",
        f"accuracy {report.accuracy:.1%} ({right}/{n}; an answer listed in a scenario's 'accept' counts)",
        f"accuracy after the guard {report.guarded_accuracy:.1%} ({report.overridden} plans overridden)",
        "",
        "confusion (rows: expected, columns: answered)",
    ]
    conf = report.confusion()
    cols = [a for a in ANSWERS if a in LABELS or any(k[1] == a for k in conf)]
    lines.append(f"{'expected':<10}" + "".join(f"{c:>10}" for c in cols) + f"{'total':>8}")
    for exp in LABELS:
        row = [conf.get((exp, c), 0) for c in cols]
        lines.append(f"{exp:<10}" + "".join(f"{v:>10}" for v in row) + f"{sum(row):>8}")
    misses = [r for r in report.results if not r.correct]
    if misses:
        lines += ["", f"misses ({len(misses)}):"]
        for r in misses[:show_misses]:
            lines.append(f"  {r.scenario}: expected {r.expected}, got {r.answer} - {r.detail[:100]}")
    lat = sorted(r.latency_s for r in report.results)
    if lat:
        lines += [
            "",
            f"latency per decision: median {lat[len(lat) // 2] * 1000:.2f} ms, max {lat[-1] * 1000:.2f} ms",
        ]
    return "\n".join(lines)


def format_summary(reports: Sequence[DecisionReport]) -> str:
    """One line per backend: accuracy raw and guarded (``make eval``)."""
    lines = [f"{'backend':<14}{'raw':>8}{'guarded':>10}{'overridden':>12}{'invalid':>9}{'error':>7}"]
    for r in reports:
        invalid = sum(x.answer == "invalid" for x in r.results)
        error = sum(x.answer == "error" for x in r.results)
        guarded = f"{r.guarded_accuracy:.1%}" if r.backend != RulesSource.name else "(own)"
        lines.append(
            f"{r.backend:<14}{r.accuracy:>8.1%}{guarded:>10}{r.overridden:>12}{invalid:>9}{error:>7}"
        )
    return "\n".join(lines)
