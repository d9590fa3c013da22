"""The README's counts and lists that come from data are checked against that data: the enemy table (every
prefab, its name and the wave it first comes), the coins a kill pays, the world commands, the agent roles,
and the hotkeys (every registered hotkey is in the keys table, and every F-key the table names exists)."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from coreai.commands import Command
from game import hotkeys as hk
from game.sim.coins import ELITE_MULT, bounties
from game.sim.prefabs import PrefabRegistry

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def table_after(header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header line starts with ``header`` (cells stripped)."""
    lines = README.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_enemy_table_is_the_prefab_data() -> None:
    prefabs = PrefabRegistry.load()
    table = {name: int(wave) for name, wave, _ in table_after("| enemy | from wave |")}
    data = {prefabs.get(n).display_name: prefabs.get(n).first_wave for n in prefabs.names}
    assert table == data


def test_the_coins_a_kill_pays_are_the_bounties() -> None:
    prefabs = PrefabRegistry.load()
    rates = bounties({n: prefabs.get(n).score for n in prefabs.names})
    said = re.search(r"Every kill pays coins \(([^)]*)\)", README)
    assert said is not None
    for name, coins in re.findall(r"(?:a|the) (\w+) (\d+)", said.group(1)):
        assert rates[name] == int(coins), name
    assert {"one": 1, "two": 2, "three": 3}[re.findall(r"pays (\w+) times", said.group(1))[0]] == ELITE_MULT


def test_the_world_commands_are_the_command_kinds() -> None:
    said = re.search(r"posting typed commands \(([^,)]*)", README)
    assert said is not None
    words = set(said.group(1).split(" / ")) | set(
        re.findall(r"and (\w+):", README[said.end() : said.end() + 60])
    )
    kinds = {cls.kind.removeprefix("get_") for cls in typing.get_args(Command)}
    assert words == kinds


def test_the_roles_are_the_role_prompts() -> None:
    said = re.search(r"Roles: (.*?); their prompts", README, re.S)
    assert said is not None
    bare = re.sub(r"\s*\(.*?\)", "", said.group(1), flags=re.S)
    named = {part.strip().removeprefix("and ").strip() for part in bare.split(",")}
    assert named == {p.stem for p in (REPO / "prompts" / "roles").glob("*.md")}


def test_every_hotkey_is_in_the_keys_table_and_every_f_key_there_exists() -> None:
    keys = " / ".join(row[0] for row in table_after("| key | action |"))
    registry = hk.default_registry()
    for entry in registry.entries:
        if entry.kind != "hotkey":
            continue
        for symbol in entry.keys:
            assert hk.key_label(symbol).split(" ")[0] in keys, entry.description
    f_keys = {hk.key_label(k) for e in registry.entries for k in e.keys if hk.key_label(k).startswith("F")}
    assert set(re.findall(r"\bF\d+\b", keys)) == f_keys
