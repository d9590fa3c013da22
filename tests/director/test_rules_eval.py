"""The rules policy on the shipped decision suite, the suite's format and CLI, and a short bot A/B."""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path

import pytest

from coreai.errors import PersistenceError
from game.director.knobs import KNOB
from game.director.source import PlanReply, PlanRequest
from game.eval.__main__ import main as eval_main
from game.eval.ab import format_ab, run_ab
from game.eval.decisions import evaluate, format_report, make_backend, register_backend
from game.eval.scenarios import SHIPPED_SCENARIOS, load_scenarios


class Constant:
    def __init__(self, answer: str | None, raw: str = "") -> None:
        self.name = f"constant-{answer}"
        self.answer = answer
        self.raw = raw

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        fut: Future[PlanReply] = Future()
        if self.answer is None:
            fut.set_result(PlanReply(self.raw, None, self.name, 0.0, req.trace_id))
        else:
            data = {"pressure": self.answer, "reason": "constant"}
            fut.set_result(PlanReply(json.dumps(data), data, self.name, 0.0, req.trace_id))
        return fut


def test_shipped_suite_is_big_and_covers_every_answer() -> None:
    suite = load_scenarios()
    assert len(suite) >= 30
    assert {s.expected for s in suite} == {"ease_off", "ease", "hold", "raise", "spike"}
    assert len({s.name for s in suite}) == len(suite)


def test_rules_score_at_least_95_percent_on_the_shipped_suite() -> None:
    report = evaluate(make_backend("rules"), load_scenarios())
    assert report.accuracy >= 0.95, format_report(report)


@pytest.mark.parametrize("answer", ["ease_off", "hold", "raise", "spike"])
def test_a_constant_answer_scores_poorly(answer: str) -> None:
    report = evaluate(Constant(answer), load_scenarios())
    assert report.accuracy < 0.6


def test_invalid_and_failing_backends_are_scored_not_crashed() -> None:
    class Broken:
        name = "broken"

        def request(self, req: PlanRequest) -> Future[PlanReply]:
            fut: Future[PlanReply] = Future()
            fut.set_exception(TimeoutError("model down"))
            return fut

    suite = load_scenarios()[:5]
    garbage = evaluate(Constant(None, raw="I think you should raise it"), suite)
    assert {r.answer for r in garbage.results} == {"invalid"} and garbage.accuracy == 0.0
    down = evaluate(Broken(), suite)
    assert {r.answer for r in down.results} == {"error"}
    assert "invalid" in format_report(garbage) and "error" in format_report(down)


def test_any_scenario_file_in_the_format_works(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "mine.jsonl"
    f.write_text(
        "# my scenarios\n"
        '{"name": "dying",'
        ' "snapshot": {"time": 50, "hp_fraction": 0.1, "seconds_since_death": 5, "deaths": 1},'
        f' "knobs": {{"danger": {KNOB["danger"].lo}}}, "expected": "ease_off"}}\n'
        "\n"
        '{"name": "bored", "snapshot": {"time": 90}, "pacing": "build_up", "intensity": 0.0,'
        ' "expected": "spike", "accept": ["raise"]}\n',
        encoding="utf-8",
    )
    assert eval_main(["decisions", "--backend", "rules", "--scenarios", str(f)]) == 0
    out = capsys.readouterr().out
    assert "accuracy 100.0% (2/2" in out and "confusion" in out and "ease_off" in out
    register_backend("always-hold", lambda: Constant("hold"))
    assert (
        eval_main(["decisions", "--backend", "always-hold", "--scenarios", str(f), "--min-accuracy", "0.9"])
        == 1
    )
    assert eval_main(["decisions", "--backend", "nope", "--scenarios", str(f)]) == 2


def test_malformed_scenario_files_name_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text('{"name": "a", "snapshot": {}, "expected": "hold"}\n{"name": "b", "expected": "maybe"}\n')
    with pytest.raises(PersistenceError, match="line 2"):
        load_scenarios(f)
    f.write_text('{"name": "a", "snapshot": {"hp_fraction": 7}, "expected": "hold"}\n')
    with pytest.raises(PersistenceError, match="line 1"):
        load_scenarios(f)
    with pytest.raises(PersistenceError):
        load_scenarios(tmp_path / "missing.jsonl")
    assert SHIPPED_SCENARIOS.exists()


def test_short_ab_reports_each_skill_with_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    # 40 s: a run opens at a low danger, brought back to 1 in holds (a decision_interval each) before a raise
    seconds = 40.0
    results = run_ab(seeds=[0], seconds=seconds, skills=("weak", "strong"), workers=1, progress=False)
    assert {(r.skill, r.mode) for r in results} == {
        ("weak", "static"),
        ("weak", "rules"),
        ("strong", "static"),
        ("strong", "rules"),
    }
    text = format_ab(results, "rules", seconds)
    assert "weak" in text and "strong" in text and "x |" in text
    assert all(0.0 <= r.flow <= 1.0 and 0.0 <= r.bored <= 1.0 for r in results)
    weak_rules, strong_rules = (
        next(r for r in results if r.skill == s and r.mode == "rules") for s in ("weak", "strong")
    )
    assert strong_rules.mean_pressure > 1.0, "the director raised the crowd for the strong player"
    assert weak_rules.mean_pressure < strong_rules.mean_pressure
    assert all(r.mean_pressure == 1.0 for r in results if r.mode == "static")


def test_progress_bar_off_a_terminal_prints_a_line_per_tenth() -> None:
    import io

    from game.eval.progress import ProgressBar

    out = io.StringIO()
    bar = ProgressBar(100, "runs", stream=out)
    for i in range(1, 101):
        bar.update(i)
    bar.close()
    lines = out.getvalue().splitlines()
    assert 10 <= len(lines) <= 11 and lines[-1].startswith("runs: 100/100")
