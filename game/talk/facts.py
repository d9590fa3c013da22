"""The fact base: every thing a reply may talk about, with the attributes the game's data and live state give.

``FactBase.load(shelf)`` reads the prefab, weapon, upgrade, shop, mod and key data, the game's rules
(waves, the boss, coins, weapon slots, the director's modes) and, from ``shelf``, the live stock and the
player's coins. A ``Thing`` is a subject of claims (the Exploder, the Medkit, the player, the weapons); its
``attrs`` map an attribute to its value (``hp: 28``). The claim reader (``game.talk.claims``) checks a
reply's claims against it, and the grounded answers (``game.talk.ask``) are built from it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from coreai.paths import shipped, shipped_dir
from coreai.persist import loads_json

if TYPE_CHECKING:
    from game.talk.wares import ShelfView

Value = int | float | str


@dataclass(eq=False)
class Thing:
    """One subject: ``key`` is stable (``enemy:exploder``), ``name`` how it is said (``Exploder``)."""

    key: str
    name: str
    kind: str  # enemy, item, weapon, upgrade, mod, player, group, rule, key
    attrs: dict[str, Value] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    text: str = ""  # what it is or does, in the data's words

    def numbers(self) -> set[float]:
        return {float(v) for v in self.attrs.values() if isinstance(v, int | float)}


_BEHAVIOUR = {  # prefab behaviour -> what it does, from game.sim.enemy_ai / enemy_kinds
    "chase": "runs straight at you",
    "ranged": "keeps its distance and shoots at you",
    "charger": "stops, winds up and then charges in a straight line",
    "splitter": "splits into smaller enemies when it dies",
    "exploder": "rushes in, lights a fuse and explodes",
    "boss": "shoots volleys and bursts",
    "shielded": "carries a shield in front of it that stops your bullets",
}


def _json(*parts: str) -> dict[str, Any]:
    data = loads_json(shipped("assets", *parts).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# last words that say too little to name one thing ("points" are a score too, "shot" any bullet)
_NOT_HEADS = frozenset({"points", "shot", "fire", "breath", "storm", "boss", "barrel", "step"})


def _heads(things: list[Thing]) -> dict[str, Thing]:
    """The last word of each shelf item's or weapon's name, and its plural, where it is that thing's alone
    ("boots": the Light Boots; "tonic": the Vitality Tonic): players shorten names that way. A word the
    game's own descriptions use as a plain noun ("slow rockets", "a ring of blades") names nothing."""
    plain = {w for t in things for w in re.findall(r"[a-z]+", t.text.lower())}
    found: dict[str, list[Thing]] = {}
    for t in things:
        words = t.name.lower().split()
        tail = words[-1]
        if len(words) > 1 and t.kind in ("item", "weapon") and tail not in _NOT_HEADS and tail not in plain:
            found.setdefault(words[-1], []).append(t)
    out: dict[str, Thing] = {}
    for word, ts in found.items():
        if len(ts) == 1:
            out[word] = ts[0]
            out[word.rstrip("s") if word.endswith("s") else _plural(word)] = ts[0]
    return out


def _plural(name: str) -> str:
    low = name.lower()
    return low + ("es" if low.endswith(("s", "sh", "ch", "x")) else "s")


def _amount(text: str) -> tuple[float | None, str]:
    """The number in an effect ("+22% bullet damage" -> 22, "%"; "heals 40 HP" -> 40, "hp")."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*(%|hp|HP)?", text)
    if not m:
        return None, ""
    return float(m.group(1)), (m.group(2) or "").lower()


@lru_cache(maxsize=1)
def _static() -> tuple[Thing, ...]:
    """The things whose attributes never change during a session (everything but stock and coins)."""
    from game.sim.coins import COINS_PER_SCORE, ELITE_MULT
    from game.sim.config import BOSS_EVERY, WAVE_BASE_SECONDS, WAVE_GROWTH_SECONDS, WAVE_MAX_SECONDS
    from game.sim.upgrades import UPGRADES
    from game.sim.weapon_data import MAX_SLOTS, STARTING_WEAPON

    out: list[Thing] = []
    prefabs = _json("prefabs", "enemies.json")["prefabs"]
    for key, p in prefabs.items():
        attrs: dict[str, Value] = {k: p[k] for k in ("hp", "damage", "speed", "first_wave", "xp") if k in p}
        attrs["coins"] = max(1, int(p["score"] * COINS_PER_SCORE))
        attrs["behaviour"] = p["behaviour"]
        extras = ("blast_radius", "fire_interval", "split_count", "keep_distance", "dash_speed", "recoil")
        for extra in extras:
            if extra in p:
                attrs[extra] = p[extra]
        names = {key, p["display_name"].lower(), _plural(key), _plural(p["display_name"])}
        if key == "boss":
            names |= {"the boss", "bosses", "elite boss"}
        out.append(
            Thing(f"enemy:{key}", p["display_name"], "enemy", attrs, tuple(sorted(names)),
                  _BEHAVIOUR.get(p["behaviour"], p["behaviour"]))
        )  # fmt: skip
    weapons = _json("weapons", "weapons.json")["weapons"]
    ups = {u.key: u for u in UPGRADES}
    for key, w in weapons.items():
        attrs = {
            "damage": w["damage"],
            "cooldown": w["cooldown"],
            "count": w.get("count", 1),
            "max_level": w.get("max_level", 5),
        }
        if w.get("evolves_into"):
            attrs["evolves_into"] = weapons[w["evolves_into"]]["name"]
            attrs["evolves_with"] = ups[w["evolves_with"]].name
        if w.get("evolved"):
            attrs["evolved"] = "yes"
        if w.get("unlock"):
            attrs["unlock"] = w["unlock"].replace("_", " ")
        names = {key.replace("_", " "), w["name"].lower(), _plural(w["name"])}
        out.append(Thing(f"weapon:{key}", w["name"], "weapon", attrs, tuple(sorted(names)), w["description"]))
    for u in UPGRADES:
        amount, _unit = _amount(u.description)
        attrs = {"max_stacks": u.max_stacks}
        if amount is not None:
            attrs["amount"] = amount
        names = {u.name.lower()}
        out.append(Thing(f"upgrade:{u.key}", u.name, "upgrade", attrs, tuple(sorted(names)), u.description))
    mods = []
    for toml in sorted(shipped_dir("assets", "mods").glob("*/mod.toml")):
        meta = tomllib.loads(toml.read_text(encoding="utf-8"))
        name = str(meta["name"])
        mods.append(
            Thing(f"mod:{name}", name.replace("_", " "), "mod", {}, (name, name.replace("_", " ")),
                  str(meta.get("description", "")))
        )  # fmt: skip
    out += mods
    base = [w for w in weapons.values() if not w.get("evolved")]
    groups = {
        "enemies": (len(prefabs), {}),
        "weapons": (
            len(base),
            {"evolved": len(weapons) - len(base), "slots": MAX_SLOTS, "all": len(weapons)},
        ),
        "mods": (len(mods), {}),
        "upgrades": (len(UPGRADES), {}),
    }
    for name, (n, more) in groups.items():
        out.append(Thing(f"group:{name}", name, "group", {"count": n, **more}, (name,)))
    out.append(
        Thing(
            "rule:game",
            "the game",
            "rule",
            {
                "boss_every": BOSS_EVERY,
                "wave_seconds": WAVE_BASE_SECONDS,
                "wave_growth": WAVE_GROWTH_SECONDS,
                "wave_max": WAVE_MAX_SECONDS,
                "slots": MAX_SLOTS,
                "choices": 3,
                "elite_mult": ELITE_MULT,
                "start_weapon": weapons[STARTING_WEAPON]["name"],
            },
            (),
        )
    )
    out.extend(_keys())
    return tuple(out)


def _keys() -> list[Thing]:
    """Every key of the F1 help (the hotkey registry), as ``key:<label>`` things."""
    from game.hotkeys import default_registry

    out: list[Thing] = []
    for entry in default_registry().entries:
        for label in re.split(r"\s*/\s*", entry.label.split(" (")[0]):
            what = entry.description
            out.append(Thing(f"key:{label}", label, "key", {"does": what}, (label.lower(),), what))
    return out


class FactBase:
    """The things a reply may talk about, found by name."""

    def __init__(self, things: tuple[Thing, ...] | list[Thing]) -> None:
        self.things = list(things)
        self.by_key = {t.key: t for t in self.things}
        names: dict[str, Thing] = {}
        for t in self.things:
            if t.kind in ("key", "player", "rule"):  # found by what is said of them, not by name
                continue
            for alias in (t.name.lower(), *t.aliases):
                names.setdefault(alias, t)
        for word, t in _heads(self.things).items():
            names.setdefault(word, t)
        self.names = names  # every name or alias, lower case -> thing
        # longest names first, so "Elite Boss" wins over "boss" and "Rapid Fire Kit" over "Rapid Fire"
        ordered = sorted(names, key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<![\w-])(" + "|".join(re.escape(n) for n in ordered) + r")(?![\w-])", re.I
        )

    @classmethod
    def load(cls, shelf: ShelfView | None = None) -> FactBase:
        things = [Thing(t.key, t.name, t.kind, dict(t.attrs), t.aliases, t.text) for t in _static()]
        player = Thing("player", "you", "player", {}, ())
        if shelf is not None:
            player.attrs["coins"] = shelf.coins
            for w in shelf.wares:
                _item(things, w.id, w.name, w.price, w.stock, w.effect, w.tags)
        else:
            from game.shop.inventory import load_inventory

            for i in load_inventory().items:
                _item(things, i.id, i.name, i.price, i.stock, i.description, tuple(i.tags))
        items = [t for t in things if t.kind == "item"]
        things.append(Thing("group:items", "items", "group", {"count": len(items)}, ("items", "wares")))
        things.append(player)
        return cls(things)

    def of_kind(self, kind: str) -> list[Thing]:
        return [t for t in self.things if t.kind == kind]

    def find(self, name: str) -> Thing | None:
        return self.names.get(name.lower().strip())

    def key(self, label: str) -> Thing | None:
        want = label.lower().replace(" ", "")
        return next(
            (t for t in self.things if t.kind == "key" and t.name.lower().replace(" ", "") == want), None
        )

    def mentions(self, text: str) -> list[tuple[int, Thing]]:
        """(offset, thing) for every name in ``text``, in order."""
        return [(m.start(), self.names[m.group(1).lower()]) for m in self.pattern.finditer(text)]


def _item(
    things: list[Thing], id_: str, name: str, price: int, stock: int, effect: str, tags: tuple[str, ...]
) -> None:
    """An item on the shelf; an item that shares its name with an upgrade (Magnet) is one thing."""
    amount, unit = _amount(effect)
    attrs: dict[str, Value] = {"price": price, "stock": stock}
    if amount is not None:
        attrs["amount"] = amount
    if unit == "hp":
        attrs["heal" if "heal" in effect else "max_hp"] = amount or 0
    attrs["tags"] = " ".join(tags)
    same = next((t for t in things if t.kind == "upgrade" and t.name.lower() == name.lower()), None)
    if same is not None:
        same.kind = "item"
        same.key = f"item:{id_}"
        same.attrs.update(attrs)
        same.text = effect
        same.aliases = tuple(sorted({*same.aliases, id_.replace("_", " "), _plural(name)}))
        return
    aliases = {name.lower(), id_.replace("_", " "), _plural(name)}
    things.append(Thing(f"item:{id_}", name, "item", attrs, tuple(sorted(aliases)), effect))
