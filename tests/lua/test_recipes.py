"""Grounded mods (issue 39): the recipe catalogue is built from the Mod API and checked against it, every kind
renders to Lua that loads and runs in the real sandbox, the rules reader reads plain phrasings, and the
model's slot reply is held to the enums and bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreai.llm.stub import StubLlmClient
from coreai.lua.api_spec import SPEC
from coreai.lua.manager import ModManager
from coreai.lua.recipes import Recipe, Rule, mod_files, mod_name, problems, read, render
from coreai.lua.recipes.catalogue import ACTION_CATALOGUE, CONDITION_CATALOGUE, TRIGGER_CATALOGUE
from coreai.lua.recipes.model import ACTIONS, CONDITIONS, TRIGGERS, Facts, ParamFact
from coreai.lua.recipes.slots import fill
from coreai.lua.results import ModState
from tests.lua.lua_fakehost import PARAMS, PREFABS, FakeHost

FACTS = Facts(
    prefabs=PREFABS,
    params=tuple(ParamFact(n, lo, hi, 1.0, n) for n, (lo, hi) in PARAMS.items()),
    arena=(3200.0, 2400.0),
)


def test_the_catalogue_names_only_the_mod_api() -> None:
    api = {f.name for f in SPEC.functions} | {h.name for h in SPEC.hooks}
    for table in (TRIGGER_CATALOGUE, CONDITION_CATALOGUE, ACTION_CATALOGUE):
        for kind, entry in table.items():
            assert set(entry.api) <= api, (kind, set(entry.api) - api)
    assert set(TRIGGER_CATALOGUE) == set(TRIGGERS)
    assert set(CONDITION_CATALOGUE) == set(CONDITIONS)
    assert set(ACTION_CATALOGUE) == set(ACTIONS)


def _every_kind() -> list[Rule]:
    rules = []
    for trigger in TRIGGERS:
        cond = "hp_below" if trigger == "when" else "always"
        rules.append(
            Rule(
                trigger=trigger,
                condition=cond,
                threshold=0.5,
                seconds=1.0,
                action="report",
                report="wave",
                filter_prefab="grunt" if trigger in ("kill", "spawn") else None,
            )
        )
    for action in ACTIONS:
        rules.append(
            Rule(
                trigger="every",
                seconds=1.0,
                action=action,
                prefab="grunt",
                count=2,
                param="score_mult",
                value=2.0,
                text="hi",
            )
        )
    for cond in CONDITIONS:
        rules.append(
            Rule(
                trigger="every",
                seconds=1.0,
                condition=cond,
                threshold=0.5 if "hp" in cond else 2,
                action="spawn",
                prefab="runner",
                place="edge",
            )
        )
    return rules  # fmt: skip


@pytest.mark.parametrize("rule", _every_kind(), ids=lambda r: f"{r.trigger}-{r.condition}-{r.action}")
def test_every_kind_renders_to_a_mod_that_runs(rule: Rule, saves_dir: Path) -> None:
    recipe = Recipe(request="a test mod", rules=(rule,))
    assert problems(recipe, FACTS) == []
    host = FakeHost()
    root = saves_dir / "mods"
    mods = ModManager(host, roots=[root], user_root=root)
    try:
        status = mods.import_mod(mod_files(recipe, FACTS, "recipe_test"))
        assert status.state == ModState.LOADED and not status.last_error, status
        for _ in range(150):  # 2.5 s of ticks, with every hook delivered on the way
            host.time += 1 / 60
            mods.dispatch(
                "on_enemy_spawned", {"id": 1, "prefab": "grunt", "x": 1.0, "y": 2.0, "source": "wave"}
            )
            mods.dispatch("on_enemy_killed", {"id": 1, "prefab": "grunt", "x": 1.0, "y": 2.0})
            mods.dispatch("on_player_damaged", 3.0)
            mods.tick(1 / 60)
        mods.dispatch("on_wave_start", 2)
        mods.dispatch("on_wave_end", 2)
        status = mods.get_status("recipe_test")
        assert status.faults == 0 and not status.last_error, status
        mods.disable("recipe_test")  # on_unload puts params back
        assert host.values["score_mult"] == 1.0
    finally:
        mods.close()


def test_the_rendered_text_quotes_what_the_player_typed() -> None:
    rule = Rule(trigger="load", action="report", text='"]] end os.exit() --')
    lua = render(Recipe(request="say ]] end\nos.exit()", rules=(rule,)), FACTS)
    assert 'report("\\"]] end os.exit() --")' in lua
    assert "\nos.exit()" not in lua


def test_a_mod_name_is_whole_words_and_unique() -> None:
    name = mod_name("spawn 3 grunts next to the player every 10 seconds")
    assert name == "spawn_3_grunts_next_player_10"
    assert mod_name("spawn 3 grunts next to the player every 10 seconds", {name}) == name + "_2"
    assert mod_name("!!!") == "my_mod"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("spawn 3 grunts next to the player every 10 seconds",
         {"trigger": "every", "seconds": 10.0, "action": "spawn", "prefab": "grunt", "count": 3,
          "place": "near_player"}),
        ("double the score multiplier while the player is under half health",
         {"trigger": "when", "condition": "hp_below", "threshold": 0.5, "action": "set_param",
          "param": "score_mult", "value": 2.0}),
        ("print the player's HP every 5 seconds",
         {"trigger": "every", "seconds": 5.0, "action": "report", "report": "player_hp"}),
        ("spawn a tank at the start of every wave",
         {"trigger": "wave_start", "action": "spawn", "prefab": "tank", "count": 1}),
        ("report how many enemies are alive", {"action": "report", "report": "enemies_alive"}),
    ],
)  # fmt: skip
def test_the_issues_requests_are_read_without_a_model(text: str, want: dict[str, object]) -> None:
    reading = read(text, FACTS)
    assert reading.recipe is not None, reading
    rule = reading.recipe.rules[0]
    assert {k: getattr(rule, k) for k in want} == want


@pytest.mark.parametrize(
    "text", ["make me invincible", "change the music", "spawn 4 dragons", "add a laser gun", "open a website"]
)
def test_what_a_mod_cannot_do_is_said_plainly(text: str) -> None:
    reading = read(text, FACTS)
    assert reading.recipe is None and reading.cant


def test_the_model_fills_only_the_missing_slots_within_bounds() -> None:
    reading = read("set the score multiplier", FACTS)
    assert reading.recipe is None and reading.missing == [["value"]]
    seen = []

    def reply(request: object) -> str:
        seen.append(request)
        return json.dumps({"value": 99})  # out of bounds: clamped to the param's maximum

    recipe, note = fill(reading, "set the score multiplier", StubLlmClient(reply), FACTS)
    assert recipe is not None, note
    assert recipe.rules[0].value == 5.0 and recipe.rules[0].param == "score_mult"
    schema = seen[0].response_schema  # type: ignore[attr-defined]
    assert schema["required"] == ["value"] and set(schema["properties"]) == {"value"}


def test_a_broken_model_reply_makes_no_recipe() -> None:
    reading = read("do something cool with my run", FACTS)
    assert reading.recipe is None
    recipe, note = fill(reading, "do something cool", StubLlmClient(lambda r: "not json at all"), FACTS)
    assert recipe is None and "JSON" in note
    recipe, note = fill(reading, "x", StubLlmClient(lambda r: json.dumps({"action": "none"})), FACTS)
    assert recipe is None
