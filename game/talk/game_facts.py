"""The facts the game's own data states, for the Chat's knowledge file (``game.talk.knowledge``): the F1 help
(the hotkey registry with the default bindings, as the app labels them), the prefab, weapon, upgrade and
shop data, the coin rule, the shipped mods' ``mod.toml`` and what the game is. ``game_facts()`` lists them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from coreai.paths import shipped, shipped_dir
from coreai.persist import loads_json


@dataclass(frozen=True)
class Fact:
    id: str
    topic: str
    title: str
    text: str
    facts: tuple[str, ...]
    keys: str
    source: str


def _read_json(*parts: str) -> dict[str, Any]:
    data = loads_json(shipped("assets", *parts).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _key_alts(label: str) -> str:
    """How a reply may name a key label: "L-Shift / R-Shift" -> "L-Shift|Shift", "W A S D" -> "WASD"
    too."""
    first = label.split(" / ")[0]
    alts = {first, first.replace(" ", "")}
    if "-" in first:
        alts.add(first.split("-", 1)[1])
    return "|".join(sorted(alts))


def _controls() -> list[Fact]:
    from coreai.settings import KeyBindings
    from game.controls import Controls
    from game.controls import key_label as name_label
    from game.hotkeys import default_registry

    bindings = KeyBindings()
    controls = Controls(bindings)
    moves = ("move_up", "move_left", "move_down", "move_right")
    # the labels game.app_keys.apply_key_bindings gives the F1 help for these bindings
    labels = {
        "Move": " ".join(name_label((getattr(bindings, a) or ["?"])[0]) for a in moves),
        "Shoot (hold)": f"Left mouse / {controls.label('shoot')}",
        "Dash (brief invulnerability)": controls.label("dash"),
    }
    keys = {
        "Move": "walk run around wasd keys movement how do i move",
        "Aim": "aim mouse cursor point where",
        "Shoot (hold)": "shoot fire attack gun weapon",
        "Dash (brief invulnerability)": "dash dodge roll evade invulnerable",
        "Pick an upgrade": "upgrade choose level up pick select",
        "Pause / resume": "pause stop break resume",
        "Help (this overlay)": "help controls list keys",
        "Screenshot (to the screenshots folder)": "screenshot picture capture",
        "Restart the run": "restart new run reset start over",
        "Fullscreen": "fullscreen full screen window",
        "Mute / unmute sound": "mute sound audio music volume",
        "Show / hide the FPS counter": "fps frame rate counter",
        "Console": "console lua command",
        "Mods panel": "panel list enable disable",
        "Director panel": "panel graph",
        "Programmer task (write a Lua mod)": "programmer write mod",
        "Cycle director backend": "director backend model switch",
    }
    out = [
        Fact(
            "controls:all",
            "controls",
            "Controls",
            f"Move with {labels['Move']}, aim with the mouse, shoot with {labels['Shoot (hold)']}, dash with "
            f"{labels['Dash (brief invulnerability)']}; F1 shows every key.",
            (
                labels["Move"] + "|" + labels["Move"].replace(" ", ""),
                _key_alts(labels["Dash (brief invulnerability)"]),
            ),
            "controls keys how to play basics buttons keyboard",
            "F1 help (game.hotkeys)",
        )
    ]
    for entry in default_registry().entries:
        label = labels.get(entry.description, entry.label)
        what = entry.description
        alts = _key_alts(label)
        verb = "Press" if entry.kind == "hotkey" else "Use"
        out.append(
            Fact(
                id="controls:" + re.sub(r"[^a-z0-9]+", "_", what.lower()).strip("_"),
                topic="controls",
                title=what,
                text=f"{what}: {verb.lower()} {label}."
                if entry.kind == "control"
                else f"{verb} {label}: {what}.",
                facts=(alts, _action_words(what)),
                keys=keys.get(what, "") + " key button press control",
                source="F1 help (game.hotkeys)",
            )
        )
    return out


_STOP = {"the", "and", "with", "this", "to", "a", "an", "of", "on", "off", "or", "for"}


def _action_words(what: str) -> str:
    """What a key does, as alternatives a right reply names at least one of ("Director panel" ->
    "director|panel"): a reply that names the key but not what it does is not an answer."""
    head = what.split("(")[0]
    words = [w for w in re.findall(r"[A-Za-z]+", head) if w.lower() not in _STOP]
    return "|".join(dict.fromkeys(w.lower() for w in words)) or what


_BEHAVIOUR = {
    "chase": "runs straight at you",
    "ranged": "keeps its distance and shoots at you",
    "charger": "winds up and charges at you",
    "splitter": "splits into smaller enemies when it dies",
    "exploder": "rushes in and explodes",
    "boss": "is a boss that shoots volleys",
    "shielded": "carries a shield in front of it",
}


def _enemies() -> list[Fact]:
    prefabs = _read_json("prefabs", "enemies.json")["prefabs"]
    out = []
    for key, p in prefabs.items():
        name = p["display_name"]
        how = _BEHAVIOUR.get(p["behaviour"], p["behaviour"])
        coins = max(1, int(p["score"] * 0.1))
        out.append(
            Fact(
                id=f"enemy:{key}",
                topic="enemies",
                title=name,
                text=f"The {name} {how}: {p['hp']} HP, hits for {p['damage']}, from wave {p['first_wave']}, "
                f"worth {coins} coin{'s' if coins != 1 else ''}.",
                facts=(name, str(p["hp"])),
                keys=f"{key} enemy monster kind {p['behaviour']}",
                source="assets/prefabs/enemies.json",
            )
        )
    names = ", ".join(p["display_name"] for p in prefabs.values())
    out.append(
        Fact(
            "enemy:all",
            "enemies",
            "Enemies",
            f"The enemies are: {names}.",
            ("Grunt", "Runner"),
            "enemy enemies monsters kinds types list which",
            "assets/prefabs/enemies.json",
        )
    )
    return out


def _weapons() -> list[Fact]:
    from game.sim.upgrades import get_upgrade

    data = _read_json("weapons", "weapons.json")["weapons"]
    out = []
    for key, w in data.items():
        name = w["name"]
        text = f"{name}: {w['description']}."
        facts: tuple[str, ...] = (name,)
        if w.get("evolves_into"):
            into = data[w["evolves_into"]]["name"]
            passive = get_upgrade(w["evolves_with"]).name
            text = f"{name} ({w['description']}) evolves into {into} at max level with one {passive} upgrade."
            facts = (name, into, passive)
        if w.get("unlock"):
            text += f" Unlock: {w['unlock'].replace('_', ' ')}."
        out.append(
            Fact(
                f"weapon:{key}",
                "weapons",
                name,
                text,
                facts,
                f"{key} weapon gun evolve evolution",
                "assets/weapons/weapons.json",
            )
        )
    from game.sim.weapon_data import MAX_SLOTS, STARTING_WEAPON

    start = data[STARTING_WEAPON]["name"]
    plain = [w["name"] for w in data.values() if not w.get("evolved")]
    out.append(
        Fact(
            "weapon:all",
            "weapons",
            "Weapons",
            f"You start with the {start} and hold up to {MAX_SLOTS} weapons; upgrade picks offer new ones "
            f"({', '.join(plain)}) and a weapon at max level evolves with its passive.",
            (str(MAX_SLOTS), start),
            "weapon weapons gun guns how many carry hold slots list which",
            "assets/weapons/weapons.json",
        )
    )
    return out


def _upgrades() -> list[Fact]:
    from game.sim.upgrades import UPGRADES

    return [
        Fact(
            f"upgrade:{u.key}",
            "upgrades",
            u.name,
            f"The {u.name} upgrade: {u.description}.",
            (u.name,),
            f"{u.key.replace('_', ' ')} upgrade passive level up stat",
            "game.sim.upgrades",
        )
        for u in UPGRADES
    ]


def _shop() -> list[Fact]:
    inv = _read_json("shop", "inventory.json")["items"]
    out = [
        Fact(
            f"shop:{i['id']}",
            "shop",
            i["name"],
            f"The Merchant sells the {i['name']} for {i['price']} coins: it {i['description']}.",
            (i["name"], str(i["price"])),
            "shop merchant buy price cost " + " ".join(i.get("tags", [])),
            "assets/shop/inventory.json",
        )
        for i in inv
    ]
    out.append(
        Fact(
            "shop:coins",
            "shop",
            "Coins",
            "You earn coins by killing enemies (a grunt pays 1, a tank 4, an elite three times its kind); "
            "spend them at the Merchant's shop between waves.",
            ("killing|kill", "Merchant|shop"),
            "coins money gold earn get currency shop merchant spend between waves",
            "game.sim.coins",
        )
    )
    return out


def _mods() -> list[Fact]:
    out = []
    for toml in sorted(shipped_dir("assets", "mods").glob("*/mod.toml")):
        meta = tomllib.loads(toml.read_text(encoding="utf-8"))
        name = meta["name"]
        on = "on by default" if meta.get("enabled_by_default", True) else "off by default"
        out.append(
            Fact(
                f"mod:{name}",
                "mods",
                name.replace("_", " "),
                f"The {name.replace('_', ' ')} mod ({on}): {meta['description']}",
                (name.replace("_", " ") + "|" + name,),
                "mod mods lua " + name.replace("_", " "),
                f"assets/mods/{name}/mod.toml",
            )
        )
    names = [r.title for r in out]
    out.append(
        Fact(
            "mod:all",
            "mods",
            "Mods: the mods the game ships",
            f"The game ships {len(names)} mods: {', '.join(names)}; "
            "F7 opens the mods panel to turn them on or off.",
            (*(n + "|" + n.replace(" ", "_") for n in names), "F7"),
            "mod mods shipped come with included which list what installed available there are all",
            "assets/mods/*/mod.toml",
        )
    )
    return out


def _about() -> list[Fact]:
    """What the game is: the answer to "what is this?" and to small talk."""
    from game.sim.config import BOSS_EVERY, WAVE_BASE_SECONDS

    return [
        Fact(
            "game:about",
            "game",
            "The game",
            f"Survive timed waves of enemies (wave 1 lasts {WAVE_BASE_SECONDS:g} s); "
            "between waves pick 1 of 3 upgrades and spend your kills' coins at the Merchant's shop. "
            f"Every {BOSS_EVERY}th wave brings the boss; "
            "the AI director shapes the pressure as you play (F10).",
            ("wave", "upgrade|coin|shop"),
            "arena game about what is this play how overview tell goal rules start",
            "game.sim.config",
        ),
        Fact(
            "game:saves",
            "game",
            "Saves",
            "The game saves on its own: each finished run goes to the high scores and the run history, and "
            "the weapons your runs unlock stay unlocked for later runs; a run itself is not saved part-way. "
            "The F1 help shows the saves folder.",
            ("saves on its own|not saved",),
            "save saves saving saved progress keep load continue resume high scores history unlock",
            "game.run_records, game.meta",
        ),
    ]


def game_facts() -> list[Fact]:
    return [*_about(), *_controls(), *_enemies(), *_weapons(), *_upgrades(), *_shop(), *_mods()]
