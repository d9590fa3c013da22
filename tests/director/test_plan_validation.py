"""The plan pipeline: valid plans apply, big steps are clamped, malformed or hallucinated plans are refused.

(The director-level proof that a refused plan leaves the previous one running is in test_director.py.)
"""

from __future__ import annotations

import json
import math
from typing import Any

import jsonschema
import pytest

from coreai.errors import ToolArgumentError
from game.ai.director_prompt import plan_json_schema
from game.ai.director_skill_doc import doc_block_in, skill_doc_block
from game.director import plan as pl
from game.director.knobs import KNOB, KNOBS, PLAN_KNOBS
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.tuning import TUNING
from game.director.validate import ValidatedPlan, parse_reply, validate_plan

PREFABS = ("grunt", "runner", "tank", "spitter")
EVENTS = ("boss", "swarm")


def check(data: Any, knobs: DirectorKnobs | None = None, **kw: Any) -> ValidatedPlan:
    return validate_plan(data, knobs or DirectorKnobs(), prefabs=PREFABS, events=EVENTS, **kw)


def test_a_valid_plan_becomes_knobs_and_commands() -> None:
    vp = check(
        {
            "pressure": "raise",
            "mix": {"runner": 3.0},
            "elite_chance": 0.05,
            "pickup_rate": 0.8,
            "event": "swarm",
            "reason": "player coasting",
            "announcer": "Here they come!",
            "note": "raised at wave 2",
        }
    )
    assert vp.knobs.pressure == pytest.approx(TUNING.decide.pressure_factor["raise"])
    assert vp.knobs.mix["runner"] == 3.0 and vp.knobs.mix["grunt"] == TUNING.mix.start["grunt"]
    assert (vp.knobs.elite_chance, vp.knobs.pickup_rate) == (0.05, 0.8)
    assert vp.clamped == ()
    ops = [c["op"] for c in vp.commands]
    assert ops == ["set_knobs", "event", "note", "announce"]
    assert json.loads(json.dumps(vp.commands)) == list(vp.commands)  # JSON-able for the trajectory


def test_spike_adds_a_burst() -> None:
    vp = check({"pressure": "spike", "reason": "bored"})
    assert {"op": "burst", "credits": TUNING.decide.spike_credits} in vp.commands


def test_big_steps_are_clamped_to_the_maximum_change() -> None:
    cur = DirectorKnobs(elite_chance=0.0, pickup_rate=1.0)
    vp = check(
        {"pressure": "hold", "elite_chance": 0.35, "pickup_rate": 3.0, "mix": {"tank": 5.0}, "reason": "x"},
        cur,
    )
    assert vp.knobs.elite_chance == pytest.approx(KNOB["elite_chance"].max_step)
    assert vp.knobs.pickup_rate == pytest.approx(1.0 + KNOB["pickup_rate"].max_step)
    assert vp.knobs.mix["tank"] == pytest.approx(TUNING.mix.start["tank"] + pl.MAX_MIX_STEP)
    assert len(vp.clamped) == 3 and all("max change" in c for c in vp.clamped)


def test_pressure_knob_stays_in_its_range() -> None:
    top = DirectorKnobs(pressure=pl.PRESSURE_RANGE[1])
    assert check({"pressure": "raise", "reason": "x"}, top).knobs.pressure == pl.PRESSURE_RANGE[1]
    bottom = DirectorKnobs(pressure=pl.PRESSURE_RANGE[0])
    vp = check({"pressure": "ease_off", "reason": "x"}, bottom)
    assert vp.knobs.pressure == pl.PRESSURE_RANGE[0] and vp.clamped


def test_rounding_the_pressure_is_not_reported_as_a_clamp() -> None:
    """F10 showed "clamped: pressure 2.9 -> 2.8961 (knob range 0.2..3)" for a pressure inside its range."""
    vp = check({"pressure": "hold", "reason": "x"}, DirectorKnobs(pressure=2.896071234))
    assert vp.knobs.pressure == 2.8961 and not [c for c in vp.clamped if c.startswith("pressure")]


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"pressure": "raise", "mix": {"dragon": 2.0}, "reason": "x"}, "unknown prefab"),
        # bosses are not mix cards
        ({"pressure": "raise", "mix": {"boss": 2.0}, "reason": "x"}, "unknown prefab"),
        ({"pressure": "spike", "event": "nuke_the_arena", "reason": "x"}, "unknown event"),
        ({"pressure": "max", "reason": "x"}, "pressure"),
        ({"pressure": "hold", "elite_chance": 0.9, "reason": "x"}, "elite_chance"),
        ({"pressure": "hold", "pickup_rate": 10, "reason": "x"}, "pickup_rate"),
        ({"pressure": "hold", "mix": {"grunt": -1.0}, "reason": "x"}, "outside"),
        ({"pressure": "hold", "mix": {"grunt": 7.0}, "reason": "x"}, "outside"),
        ({"pressure": "hold", "elite_chance": "high", "reason": "x"}, "elite_chance"),
        ({"pressure": "hold", "pickup_rate": "1.5", "reason": "x"}, "pickup_rate"),  # strict: no coercion
        ({"pressure": "hold", "mix": ["grunt"], "reason": "x"}, "mix"),
        ({"pressure": "hold", "elite_chance": math.nan, "reason": "x"}, "elite_chance"),
        ({"pressure": "hold", "reason": "x", "spawn_rate": 3}, "spawn_rate"),  # extra keys are refused
        ({"pressure": "hold"}, "reason"),
        ({"pressure": "hold", "reason": "line one\nline two"}, "single line"),
        ({"pressure": "hold", "reason": "x" * (pl.REASON_MAX + 1)}, "reason"),
        ({"pressure": "hold", "reason": "x", "announcer": "y" * (pl.ANNOUNCER_MAX + 1)}, "announcer"),
        ([{"pressure": "hold"}], "JSON object"),
    ],
)
def test_malformed_and_hallucinated_plans_are_rejected(data: Any, needle: str) -> None:
    with pytest.raises(ToolArgumentError) as err:
        check(data)
    assert needle in str(err.value)
    assert err.value.tool == pl.TOOL_NAME


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ("", "empty"),
        ("not json at all", "not JSON"),
        ('{"pressure": "hold",', "not JSON"),
        ("[1, 2]", "JSON object"),
        ("x" * 5000, "chars"),
    ],
)
def test_unparsable_replies_are_rejected(raw: str, needle: str) -> None:
    with pytest.raises(ToolArgumentError, match=needle):
        parse_reply(raw, None)


def test_parsed_plan_wins_over_raw_text() -> None:
    assert parse_reply("the model rambled", {"pressure": "hold", "reason": "x"})["pressure"] == "hold"


def test_an_event_that_is_not_ready_is_dropped_and_the_rest_applies() -> None:
    vp = check(
        {"pressure": "spike", "event": "boss", "reason": "x"},
        event_not_ready=lambda n: "a boss is already alive",
    )
    assert vp.event is None
    assert not any(c["op"] == "event" for c in vp.commands)
    assert any("a boss is already alive" in c for c in vp.clamped)
    assert vp.knobs.pressure > 1.0


def test_schema_keeps_enums_and_lengths_and_matches_the_model() -> None:
    schema = plan_json_schema(PREFABS, EVENTS)
    jsonschema.Draft202012Validator.check_schema(schema)
    props = schema["properties"]
    assert set(props) == set(DirectorPlan.model_fields)
    assert props["pressure"]["enum"] == list(pl.PRESSURES)
    assert set(props["mix"]["properties"]) == set(PREFABS) and props["mix"]["additionalProperties"] is False
    assert props["event"]["enum"] == [*EVENTS, None]
    assert props["reason"]["maxLength"] == pl.REASON_MAX
    good = {"pressure": "raise", "mix": {"runner": 2.0}, "event": "swarm", "reason": "x"}
    jsonschema.validate(good, schema)
    check(good)
    for bad in (
        {"pressure": "raise", "mix": {"dragon": 1.0}, "reason": "x"},
        {"pressure": "nope", "reason": "x"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_the_creator_brief_examples_are_valid_plans() -> None:
    """prompts/skills/director.md shows the model example plans: they must pass the real validator."""
    import re

    from coreai.paths import PROMPTS_DIR

    text = (PROMPTS_DIR / "skills" / "director.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) >= 3
    for block in blocks:
        check(json.loads(block))
    for name, factor in TUNING.decide.pressure_factor.items():
        if name in ("ease_off", "raise"):
            assert f"{name} ×{factor:g}" in text
    assert f"{pl.PRESSURE_RANGE[0]:g}–{pl.PRESSURE_RANGE[1]:g}" in text


def test_schema_becomes_a_llama_cpp_grammar_that_keeps_the_enums() -> None:
    """llama.cpp ignores numeric bounds but honours enums; the event and pressure enums must survive."""
    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(json.dumps(plan_json_schema(PREFABS, EVENTS)))
    rules = dict(line.split(" ::= ", 1) for line in gbnf.splitlines() if " ::= " in line)
    assert rules["event"] == '"\\"boss\\"" | "\\"swarm\\"" | "null"'
    assert rules["pressure"] == " | ".join(f'"\\"{p}\\""' for p in pl.PRESSURES)
    assert all(rules[f"mix-{p}-kv"].startswith(f'"\\"{p}\\""') for p in PREFABS)  # mix keys are fixed names
    assert "string" not in rules["mix"]
    LlamaGrammar.from_string(gbnf, verbose=False)


def test_the_skill_doc_knob_rows_are_generated_from_the_table() -> None:
    from coreai.paths import PROMPTS_DIR

    text = (PROMPTS_DIR / "skills" / "director.md").read_text(encoding="utf-8")
    assert doc_block_in(text) == skill_doc_block(), "run: python -m game.ai.director_skill_doc"
    for knob in PLAN_KNOBS:
        assert f"| `{knob.name}` | number {knob.lo:g}..{knob.hi:g} |" in text


def test_the_table_drives_knobs_plan_fields_and_schema() -> None:
    assert set(DirectorKnobs.model_fields) == {k.name for k in KNOBS} | {"mix"}
    assert DirectorKnobs().model_dump() == {k.name: k.default for k in KNOBS} | {"mix": TUNING.mix.start}
    props = plan_json_schema(PREFABS, EVENTS)["properties"]
    for knob in PLAN_KNOBS:
        assert props[knob.name]["minimum"] == knob.lo and props[knob.name]["maximum"] == knob.hi
        with pytest.raises(ToolArgumentError, match=knob.name):
            check({"pressure": "hold", "reason": "x", knob.name: knob.hi + 1})
    assert "pressure" not in DirectorPlan.model_fields or not KNOB["pressure"].in_plan


ADD_A_KNOB = """
import dataclasses, json
import game.director.knobs as kn
spawn_rate = kn.Knob("spawn_rate", 0.5, 2.0, 1.0, 0.25, "spawn rate", "x", "how fast groups come")
kn.KNOBS = (*kn.KNOBS, spawn_rate)
kn.KNOB = {k.name: k for k in kn.KNOBS}
kn.PLAN_KNOBS = tuple(k for k in kn.KNOBS if k.in_plan)
from game.director.plan import DirectorKnobs
from game.ai.director_prompt import plan_json_schema
from game.director.validate import validate_plan
from game.ai.director_agent import plan_tool, PlanCapture
from game.ai.director_skill_doc import skill_doc_block
assert DirectorKnobs().spawn_rate == 1.0
schema = plan_json_schema(["grunt"], [])
assert schema["properties"]["spawn_rate"]["maximum"] == 2.0
vp = validate_plan({"pressure": "hold", "reason": "x", "spawn_rate": 2.0}, DirectorKnobs(),
                   prefabs=["grunt"], events=[])
assert vp.knobs.spawn_rate == 1.25 and "spawn_rate 2 -> 1.25" in vp.clamped[0], vp.clamped
assert "spawn_rate (0.5..2)" in plan_tool(["grunt"], [], PlanCapture()).description
assert "| `spawn_rate` | number 0.5..2 |" in skill_doc_block()
from game.director.saturation import EASING, ESCALATION
assert "spawn_rate" in ESCALATION and "spawn_rate" in EASING  # saturation reads the table too
print("ok")
"""


def test_adding_a_knob_is_one_row_in_the_table() -> None:
    """A new row reaches the live knobs, the plan fields, the schema, the clamping, the tool description and
    the skill doc (in a fresh interpreter, so this session's models stay as they are)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", ADD_A_KNOB], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]


def test_the_director_role_prompt_quotes_the_tables_steps() -> None:
    """prompts/roles/Director.md (hand-written, short for a small model) states the per-plan steps: they
    must be the knob table's."""
    import re

    from coreai.paths import PROMPTS_DIR
    from game.director.knobs import MIX_WEIGHT

    text = (PROMPTS_DIR / "roles" / "Director.md").read_text(encoding="utf-8")
    quoted = dict(re.findall(r"(\w+) \+-([0-9.]+)", text))
    expected = {"mix": MIX_WEIGHT.max_step} | {k.name: k.max_step for k in PLAN_KNOBS}
    got = {name: float(v) for name, v in quoted.items()}
    assert quoted and got == expected, "list every plan knob's step in prompts/roles/Director.md"


def test_the_director_role_prompt_names_the_events_the_rules_use() -> None:
    """The role brief tells a model which event goes with which pressure, as the rules policy does it."""
    import re

    from coreai.paths import PROMPTS_DIR
    from game.director.events import EventRegistry
    from game.director.rules import EASE_EVENT, SPIKE_EVENTS

    text = (PROMPTS_DIR / "roles" / "Director.md").read_text(encoding="utf-8")
    named = set(re.findall(r"event\s+(\w+)", text))
    assert EASE_EVENT in named and named & set(SPIKE_EVENTS), (
        f"prompts/roles/Director.md names events {sorted(named)}"
    )
    assert named <= set(EventRegistry().names()), "the role names only registered events"


def test_the_director_prompts_quote_the_policys_numbers() -> None:
    """Both prompts state the rules policy's thresholds (normal's tuning) and the pressure factors, and name
    no event the game does not register (the climax is gone)."""
    import re

    from coreai.paths import PROMPTS_DIR
    from game.director.events import EventRegistry
    from game.director.tuning import TUNING

    t, danger = TUNING.plan, KNOB["danger"]
    numbers = {
        "recent_death_s": f"{t.recent_death_s:g} s",
        "low_hp": f"{t.low_hp:.0%}",
        "heavy_damage_15s": f"{t.heavy_damage_15s:.0%} of a bar",
        "hp_full": f"{TUNING.danger.hp_full:.0%}",
        "raise_damage_60s": f"{t.raise_damage_60s:.0%} of a bar",
        "raise_damage_15s": f"{t.raise_damage_15s:.0%} of a bar",
        "peak_due_s": f"{t.peak_due_s:g} s",
        "prey_hp": f"{TUNING.danger.prey_hp:.0%}",
        "escalate_skill": f"{t.escalate_skill:g}",
        "danger's lowest": f"{danger.lo:g}",
        "danger's top": f"{danger.hi:g}",
    }
    for doc, factor, span in (("skills/director.md", "×", "–"), ("roles/Director.md", "x", "-")):
        text = (PROMPTS_DIR / doc).read_text(encoding="utf-8")
        missing = [name for name, shown in numbers.items() if shown not in text]
        assert not missing, f"prompts/{doc} does not state {missing}"
        for name in ("ease_off", "raise"):
            assert f"{name} {factor}{TUNING.decide.pressure_factor[name]:g}" in text, (
                f"prompts/{doc}: {name}'s factor"
            )
        assert f"{pl.PRESSURE_RANGE[0]:g}{span}{pl.PRESSURE_RANGE[1]:g}" in text, (
            f"prompts/{doc}: pressure range"
        )
    skill = (PROMPTS_DIR / "skills" / "director.md").read_text(encoding="utf-8")
    (event_row,) = [line for line in skill.splitlines() if line.startswith("| `event` |")]
    named = set(re.findall(r"`(\w+)` \(|, `(\w+)`", event_row))
    names = {n for pair in named for n in pair if n}
    assert names and names <= set(EventRegistry().names()), f"the skill doc's event row names {sorted(names)}"
