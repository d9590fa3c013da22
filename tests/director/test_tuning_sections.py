"""The balance values that used to be constants in code (the enemy mix shifts, what a plan's pressure does,
the built-in events' cooldowns and sizes, the skill estimate, L4D intensity) are ``[mix]``, ``[decide]``,
``[events]``, ``[skill]`` and ``[intensity]`` of ``assets/director/tuning.toml``: a bad value is refused
with its name, a preset may not change the sections every preset shares, and an edited file reaches the
game (the rules' plan, the events, the set pieces, the estimators)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from coreai.errors import SettingsError
from game.director.knobs import KNOB
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import decide
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot
from game.director.tuning import SAME_AT_EVERY_PRESET, TUNING, _text, parse

REPO = Path(__file__).resolve().parents[2]


def _with(old: str, new: str) -> str:
    text = _text()
    assert text.count(old) == 1, f"{old!r} is not once in tuning.toml"
    return text.replace(old, new)


@pytest.mark.parametrize(
    "old, new, named",
    [
        ("ease = { grunt = 1.0,", "ease = { grunt = 2.0,", "mix.ease.grunt"),  # a shift over the knob's step
        ("start = { grunt = 3.0,", "start = { grunt = 9.0,", "mix.start.grunt"),  # a weight over 5
        ("elite_per_toughness = 6.0", "elite_per_toughness = 0", "mix.elite_per_toughness"),
        ("interval_s = 10.0", "interval_s = 0", "decide.interval_s"),
        ("{ ease_off = 0.85, hold = 1.0,", "{ ease_off = 0.85,", "pressure_factor must name"),
        ("{ ease_off = 0.85,", "{ ease_off = 0.85, calm = 0.5,", "decide.pressure_factor.calm"),
        ("swarm_groups = 2", "swarm_groups = 99", "events.swarm_groups"),
        ("surround_new = [8, 16]", "surround_new = [16, 8]", "surround_new must be [low, high]"),
        ("boss_cooldown_s = 90.0", "boss_cooldown_s = -1.0", "events.boss_cooldown_s"),
        ("prior = 0.35", "prior = 1.5", "skill.prior"),
        ("alive = 0.2 }", "alive = 0.3 }", "weights must add up to 1"),
        ("alive = 0.2 }", "alive = 0.2, luck = 0.0 }", "skill.weights.luck"),
        ("accuracy = [0.15, 0.7]", "accuracy = [0.7, 0.15]", "accuracy must be [low, high]"),
        ("decay_per_s = 0.05", "decay_per_s = -0.05", "intensity.decay_per_s"),
        ("engage_radius = 190.0", "engage_radus = 190.0", "intensity.engage_radus"),
    ],
)
def test_a_bad_value_in_a_moved_section_is_refused_with_its_name(old: str, new: str, named: str) -> None:
    with pytest.raises(SettingsError) as err:
        parse(_with(old, new))
    assert named in str(err.value) and "tuning.toml" in str(err.value), str(err.value)


@pytest.mark.parametrize("section", SAME_AT_EVERY_PRESET)
def test_a_preset_may_not_change_a_section_every_preset_shares(section: str) -> None:
    key = next(iter(type(getattr(TUNING, section)).model_fields))
    text = _text() + f"\n[presets.odd]\n{section}.{key} = 1\n"
    with pytest.raises(SettingsError, match=rf"\(odd\): a preset may not change \['{section}'\]"):
        parse(text, "odd")
    assert parse(text, "normal") == TUNING, "the other presets still load"


def _struggling(knobs: DirectorKnobs) -> DirectorSituation:
    snap = {"time": 120.0, "wave": 3, "level": 4, "skill": 0.5, "hp_fraction": 0.1, "damage_15s": 0.0}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**snap),
        intensity=0.3,
        pacing=PacingState.BUILD_UP,
        pacing_s=5.0,
        since_spike_s=999.0,
        knobs=knobs,
        prefabs=["grunt", "runner", "spitter", "tank"],
        events=["supply"],
    )


def test_the_rules_shift_the_mix_by_the_file_s_values() -> None:
    start = DirectorKnobs()
    assert start.mix == TUNING.mix.start
    shipped = decide(_struggling(start), TUNING)["mix"]
    assert shipped == {k: start.mix[k] + TUNING.mix.ease.get(k, 0.0) for k in start.mix}
    edited = parse(_with("ease = { grunt = 1.0, spitter = -1.0,", "ease = { grunt = 0.5, spitter = -1.5,"))
    mix = decide(_struggling(start), edited)["mix"]
    assert mix["grunt"] == start.mix["grunt"] + 0.5 and mix["spitter"] == start.mix["spitter"] - 1.5
    assert mix != shipped


def test_easings_do_not_pile_up_a_raise_brings_the_ranged_kinds_back() -> None:
    """Ten easings in a row leave the mix at the start mix plus one ease shift (not ten: a kind is never
    taken out for good), and a raise after them brings spitters back toward the start mix."""
    k = DirectorKnobs()
    for _ in range(10):
        k = k.model_copy(update={"mix": decide(_struggling(k), TUNING)["mix"]})
    aim = {n: max(0.0, w + TUNING.mix.ease.get(n, 0.0)) for n, w in TUNING.mix.start.items()}
    assert k.mix == aim
    assert k.mix["spitter"] > 0.0
    hurt = _struggling(k)
    calm = hurt.model_copy(update={"snapshot": hurt.snapshot.model_copy(update={"hp_fraction": 1.0})})
    raised = decide(calm, TUNING)
    assert raised["pressure"] == "raise" or "danger" in raised, raised["reason"]
    assert raised["mix"]["spitter"] == TUNING.mix.start["spitter"] > k.mix["spitter"]


def test_escalation_pairs_elites_with_toughness_by_the_file_s_ratio() -> None:
    """At the ceiling, with danger and tier at their tops, escalation raises toughness while elite chance
    times ``elite_per_toughness`` covers the toughness added, else elite chance."""
    from game.director.rules import pressure_ceiling

    skill = TUNING.plan.escalate_skill + 0.1
    knobs = DirectorKnobs(
        pressure=pressure_ceiling(skill, 4, TUNING),
        danger=KNOB["danger"].hi,
        tier=KNOB["tier"].hi,
        toughness=1.5,
        elite_chance=0.08,
    )
    sit = _struggling(knobs).model_copy(
        update={"snapshot": GameSessionSnapshot(time=120.0, wave=3, level=4, skill=skill, hp_fraction=1.0)}
    )
    assert 0.08 * TUNING.mix.elite_per_toughness < 0.5 < 0.08 * 8.0
    assert "elite_chance" in decide(sit, TUNING)
    assert "toughness" in decide(sit, parse(_with("elite_per_toughness = 6.0", "elite_per_toughness = 8.0")))


EDITED = """
import json
import game.director.tuning as tu
text = tu._text()
for old, new in json.loads(EDITS):
    assert text.count(old) == 1, old
    text = text.replace(old, new)
tu._text = lambda: text
tu.tuning.cache_clear()
tu.TUNING = tu.tuning()
from game.director.director import Director
from game.director.events import EventRegistry
from game.director.intensity import IntensityTracker
from game.director.plan import DirectorKnobs
from game.director.skill import SkillEstimator
from game.director.validate import validate_plan
from game.sim.set_pieces import surround_size
ev = EventRegistry()._events
vp = validate_plan({"pressure": "spike", "reason": "x"}, DirectorKnobs(), prefabs=["grunt"], events=[])
print(json.dumps({
    "surround_cooldown_s": ev["surround"].cooldown_s, "boss_cooldown_s": ev["boss"].cooldown_s,
    "surround_size_1": surround_size(1), "prior": SkillEstimator().value,
    "interval_s": Director().decision_interval_s, "start_grunt": DirectorKnobs().mix["grunt"],
    "spike_pressure": vp.knobs.pressure,
    "burst": [c for c in vp.commands if c["op"] == "burst"][0]["credits"],
    "grace": IntensityTracker()._since_hit,
}))
"""


def test_an_edited_file_reaches_the_game() -> None:
    edits = [
        ("surround_cooldown_s = 12.0", "surround_cooldown_s = 7.0"),
        ("boss_cooldown_s = 90.0", "boss_cooldown_s = 60.0"),
        ("surround_ring = 12", "surround_ring = 10"),
        ("prior = 0.35", "prior = 0.45"),
        ("interval_s = 10.0", "interval_s = 6.0"),
        ("start = { grunt = 3.0,", "start = { grunt = 2.5,"),
        ("raise = 1.15, spike = 1.3 }", "raise = 1.15, spike = 1.5 }"),
        ("spike_credits = 12.0", "spike_credits = 20.0"),
        ("engage_grace_s = 1.5", "engage_grace_s = 2.5"),
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO), "EDITS": json.dumps(edits)}
    code = "import os; EDITS = os.environ['EDITS']\n" + EDITED
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {
        "surround_cooldown_s": 7.0,
        "boss_cooldown_s": 60.0,
        "surround_size_1": 10,
        "prior": 0.45,
        "interval_s": 6.0,
        "start_grunt": 2.5,
        "spike_pressure": 1.5,
        "burst": 20.0,
        "grace": 2.5,
    }


def test_the_readme_says_which_balance_values_are_still_in_code() -> None:
    from game.sim.spawner import MAX_GROUP_CAP, MIN_GROUP, VARIETY_RUN

    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    still = text[text.index("Still in code:") :].split("**")[0]
    assert "game/director/knobs.py" in still and "game/sim/spawner.py" in still
    assert f"{MIN_GROUP} to {MAX_GROUP_CAP} enemies a group" in still
    assert VARIETY_RUN == 2 and "no kind three groups in a row" in still


def test_what_the_model_reads_states_the_file_s_values() -> None:
    """The director's skill doc and the events' descriptions (in the model's prompt) name some of these
    values in words: they must say what the file says."""
    from game.director.events import EventRegistry

    doc = (REPO / "prompts" / "skills" / "director.md").read_text(encoding="utf-8")
    assert f"About every {TUNING.decide.interval_s:g} seconds of game time" in doc
    groups = {1: "one", 2: "two", 3: "three", 4: "four"}[TUNING.events.swarm_groups]
    assert f"`swarm` ({groups} packs of runners from the flanks)" in doc
    assert EventRegistry().describe()["swarm"].startswith(f"{groups} packs of fast chasers")
