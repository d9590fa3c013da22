"""The stakes report says how much of a model's direction the guard replaced, per player model, so a table
for an LLM mode is not read as the model's own play; the rules (their own guard) get no such lines."""

from __future__ import annotations

from game.eval.stakes import StakesRun, format_stakes


def run(skill: str, mode: str, plans: int, overridden: int, *, won: bool = True) -> StakesRun:
    return StakesRun(
        skill=skill, seed=1, mode=mode, difficulty="normal", won=won, died=not won, ended_s=60.0, wave=2,
        close_calls=0, low_s=0.0, kills=0, plans=plans, overridden=overridden,
    )  # fmt: skip


def test_an_llm_modes_report_counts_the_guards_overrides_per_model() -> None:
    runs = [
        run("novice", "static", 0, 0),
        run("novice", "local", 40, 30),
        run("novice", "local", 60, 45, won=False),
        run("strong", "local", 50, 0),
    ]
    out = format_stakes(runs, "local")
    assert "The guard replaced a model's plan by the rules plan:" in out
    assert "  novice: 75 of 100 plans (75%)" in out
    assert "strong:" not in out.split("The guard replaced")[1], "a model the guard never overrode: no line"


def test_the_rules_report_has_no_guard_lines() -> None:
    out = format_stakes([run("novice", "static", 0, 0), run("novice", "rules", 40, 0)], "rules")
    assert "guard" not in out
