"""The Chat's knowledge file, ``assets/talk/knowledge.jsonl``: game facts built from the game's own text.

Sources: the F1 help (``game.hotkeys.default_registry`` with the default key bindings, as the app labels
them), the prefab, weapon, upgrade and shop data, the coin rule, the shipped mods' ``mod.toml`` and the skill
docs under ``prompts/skills/``. ``build_entries()`` reads them; ``python -m game.talk.knowledge`` writes the
file (``make`` does too) and a test checks the file matches, so the Chat's facts cannot drift from the game.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from coreai.paths import shipped, shipped_dir
from coreai.persist import loads_json

KNOWLEDGE_FILE = "knowledge.jsonl"  # under assets/talk/


class Entry(BaseModel):
    """One fact the Chat can state: ``text`` is the grounded answer, ``facts`` what a right reply holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9_.:-]{1,80}$")
    topic: str
    title: str
    text: str = Field(min_length=1, max_length=400)
    facts: tuple[str, ...] = ()
    keys: str = ""  # extra search words
    source: str = ""


@dataclass(frozen=True)
class _Raw:
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


def _controls() -> list[_Raw]:
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
        _Raw(
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
            _Raw(
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


def _enemies() -> list[_Raw]:
    prefabs = _read_json("prefabs", "enemies.json")["prefabs"]
    out = []
    for key, p in prefabs.items():
        name = p["display_name"]
        how = _BEHAVIOUR.get(p["behaviour"], p["behaviour"])
        coins = max(1, int(p["score"] * 0.1))
        out.append(
            _Raw(
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
        _Raw(
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


def _weapons() -> list[_Raw]:
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
            _Raw(
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
        _Raw(
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


def _upgrades() -> list[_Raw]:
    from game.sim.upgrades import UPGRADES

    return [
        _Raw(
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


def _shop() -> list[_Raw]:
    inv = _read_json("shop", "inventory.json")["items"]
    out = [
        _Raw(
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
        _Raw(
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


def _mods() -> list[_Raw]:
    out = []
    for toml in sorted(shipped_dir("assets", "mods").glob("*/mod.toml")):
        meta = tomllib.loads(toml.read_text(encoding="utf-8"))
        name = meta["name"]
        on = "on by default" if meta.get("enabled_by_default", True) else "off by default"
        out.append(
            _Raw(
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
        _Raw(
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


def _about() -> list[_Raw]:
    """What the game is: the answer to "what is this?" and to small talk."""
    from game.sim.config import BOSS_EVERY, WAVE_BASE_SECONDS

    return [
        _Raw(
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
        )
    ]


_MD = re.compile(r"`|\*\*|\|")
# a doc sentence's checkable terms: file names, paths, key names, numbers with units
_TERM = re.compile(
    r"\b[\w-]+\.(?:toml|lua|json)\b|\b\w+/\w+/?|\bF\d{1,2}\b|\b\d+(?:\.\d+)?\s?(?:s|%|ms|MB)\b"
)
_AGENT_SPEAK = re.compile(r"\bagents?\b|set_director_plan|\bcall\b|\btool\b|you get the situation", re.I)


SECTION_KEYS = {  # extra search words for a skill doc's sections, as players ask about them
    "1. Quick start": "make create write install new own folder",
    "5. Limits (what gets your mod killed or refused)": "limit killed budget memory slow",
}


def _paragraphs(path: Path) -> list[tuple[str, str]]:
    """(section title, paragraph) for each plain paragraph or bullet of a markdown file."""
    out: list[tuple[str, str]] = []
    title, in_code = "", False
    lines: list[str] = []

    def flush() -> None:
        if lines:
            out.append((title, " ".join(lines)))
            lines.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code:
            continue
        if line.startswith("#"):
            flush()
            title = line.lstrip("# ").strip()
        elif not line.strip() or line.startswith("|"):
            flush()
        elif line.lstrip().startswith(("- ", "* ")):
            flush()
            lines.append(line.strip()[2:])
        else:
            lines.append(line.strip())
    flush()
    return out


def _doc_sentences(path: Path, topic: str, keys: str, per_section: int = 3) -> list[_Raw]:
    """The first one or two sentences of each plain paragraph of a skill doc (code, tables and what is
    said to agents skipped), at most ``per_section`` per section."""
    from game.talk.grounding import sentences

    out: list[_Raw] = []
    taken: dict[str, int] = {}
    for title, para in _paragraphs(path):
        text = _MD.sub("", para).strip()
        lead_in = text.endswith(":") or "<!--" in text
        if _AGENT_SPEAK.search(text) or lead_in or len(text) < 40 or taken.get(title, 0) >= per_section:
            continue
        said = ""
        for sentence in sentences(text):
            if len(said) + len(sentence) > 300:
                break
            said = f"{said} {sentence}".strip()
        if len(said) < 40:
            continue
        taken[title] = taken.get(title, 0) + 1
        terms = _TERM.findall(said)
        out.append(
            _Raw(
                f"{topic}:{path.stem}.{len(out)}",
                topic,
                title,
                said,
                tuple(dict.fromkeys(terms))[:2],
                f"{keys} {title.lower()} {SECTION_KEYS.get(title, '')}",
                f"prompts/skills/{path.name}",
            )
        )
    return out


def _docs() -> list[_Raw]:
    skills = shipped_dir("prompts", "skills")
    about = _Raw(
        "director:about",
        "director",
        "The AI director",
        "The AI director watches how you are doing and shapes the pressure, in the spirit of Left 4 Dead: "
        "a build-up, a short peak, a fade, then a breather; F10 shows its panel.",
        ("pressure|peak|pacing",),
        "director director ai what is who does it work adapts difficulty left 4 dead",
        "prompts/roles/Creator.md",
    )
    return [
        about,
        *_doc_sentences(skills / "director.md", "director", "director ai pacing intensity waves pressure"),
        *_doc_sentences(skills / "lua_modding.md", "mods", "mod mods lua modding script"),
    ]


def build_entries() -> list[Entry]:
    raws = [*_about(), *_controls(), *_enemies(), *_weapons(), *_upgrades(), *_shop(), *_mods(), *_docs()]
    return [Entry.model_validate(asdict(r)) for r in raws]


def render(entries: list[Entry]) -> str:
    return "".join(
        json.dumps(e.model_dump(mode="json"), ensure_ascii=False, sort_keys=True) + "\n" for e in entries
    )


def knowledge_path() -> Path:
    return shipped_dir("assets", "talk") / KNOWLEDGE_FILE


def load_knowledge(path: Path | None = None) -> list[Entry]:
    """The knowledge file; built from the sources when the file is missing (a fresh checkout)."""
    source = path or knowledge_path()
    try:
        text = source.read_text(encoding="utf-8")
    except OSError:
        return build_entries()
    return [Entry.model_validate(loads_json(line)) for line in text.splitlines() if line.strip()]


def main(argv: list[str]) -> int:
    path = knowledge_path()
    text = render(build_entries())
    if "--check" in argv:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        sys.stderr.write(
            "knowledge file is up to date\n"
            if same
            else f"{path} is stale: run python -m game.talk.knowledge\n"
        )
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    sys.stderr.write(f"wrote {len(text.splitlines())} entries to {path}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
