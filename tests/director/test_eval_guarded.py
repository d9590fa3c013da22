"""``make eval`` scores each backend raw and guarded: a backend that spikes everything is overridden by the
guard wherever a hard rule forbids it, and its guarded accuracy is what the director would really apply."""

from __future__ import annotations

from director_support import ScriptedSource, plan

from game.director.pacing import PacingState
from game.director.rules import RulesSource
from game.director.tuning import TUNING
from game.eval.decisions import evaluate, format_report, format_summary
from game.eval.scenarios import SHIPPED_SCENARIOS, load_scenarios


def test_a_spiking_backend_is_scored_raw_and_guarded() -> None:
    suite = load_scenarios(SHIPPED_SCENARIOS)
    spiker = ScriptedSource("spiky", [plan("spike") for _ in suite])
    report = evaluate(spiker, suite)
    assert all(r.answer == "spike" for r in report.results)
    assert report.overridden > 0, "recovery and relax scenarios exist in the shipped suite"
    assert report.guarded_accuracy > report.accuracy
    plan_t = TUNING.plan
    for sc, r in zip(suite, report.results, strict=True):
        snap = sc.snapshot
        recovering = snap.seconds_since_death < plan_t.recent_death_s or snap.hp_fraction < plan_t.low_hp
        if recovering:
            assert r.guarded in ("ease_off", "hold"), (
                f"{sc.name}: a recovering player gets no spike, no raise"
            )
        elif sc.pacing is PacingState.RELAX:
            assert r.guarded and r.guarded != "spike", (
                f"{sc.name}: no spike in a relax (the rules plan instead)"
            )
        if r.guarded:
            assert r.final == r.guarded and r.guarded != "spike"
    text = format_report(report)
    assert f"accuracy after the guard {report.guarded_accuracy:.1%}" in text
    rules = evaluate(RulesSource(), suite)
    assert rules.overridden == 0, "the rules source is its own guard"
    table = format_summary([rules, report])
    assert "(own)" in table.splitlines()[1] and "spiky" in table.splitlines()[2]
