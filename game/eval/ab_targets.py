"""The respawn A/B's targets: Director 3's presence and pace, each against static on the same seeds.

A model's row (``ab.summarize``) passes or fails each target on its own:

- **empty**: no enemy in view for at most ``empty_share`` of play (after the opening);
- **longest**: no empty stretch over ``longest_empty_s``;
- **engaged**: the engaged share at least static's minus ``engaged_drop``;
- **kills**: kills per minute at least ``kills_share`` of static's.

Deaths and danger are reported, never targets: a run that can be lost is the point (the stakes report,
``game.eval.stakes``, judges how close the contest is).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Targets:
    empty_share: float = 0.03  # at most this share of play with no enemy in view (after the opening)
    longest_empty_s: float = 5.0  # no empty stretch longer than this, seconds
    engaged_drop: float = 0.05  # engaged share at least static's minus this
    kills_share: float = 0.7  # kills per minute at least this share of static's


TARGETS = Targets()


@dataclass(frozen=True)
class Check:
    """One target for one model: the director's figure, static's, and the bound the director is held to."""

    name: str  # empty, longest, engaged, kills
    label: str  # the target in words, for the table's header
    passed: bool
    director: float
    static: float
    bound: float
    unit: str  # share (0..1, printed as %), s, or per_min


def target_checks(row: dict[str, float], t: Targets = TARGETS) -> list[Check]:
    """Every target for one model's row, passed or not."""
    engaged = row["engaged_static"] - t.engaged_drop
    kills = t.kills_share * row["kills_static"]
    return [
        Check(
            "empty",
            f"empty <= {t.empty_share:.0%}",
            row["empty_director"] <= t.empty_share,
            row["empty_director"],
            row["empty_static"],
            t.empty_share,
            "share",
        ),
        Check(
            "longest",
            f"longest <= {t.longest_empty_s:g} s",
            row["longest_empty_director"] <= t.longest_empty_s,
            row["longest_empty_director"],
            row["longest_empty_static"],
            t.longest_empty_s,
            "s",
        ),
        Check(
            "engaged",
            f"engaged >= static - {t.engaged_drop * 100:g} pts",
            row["engaged_director"] >= engaged,
            row["engaged_director"],
            row["engaged_static"],
            engaged,
            "share",
        ),
        Check(
            "kills",
            f"kills/min >= {t.kills_share:.0%} of static",
            row["kills_director"] >= kills,
            row["kills_director"],
            row["kills_static"],
            kills,
            "per_min",
        ),
    ]


def target_misses(row: dict[str, float], t: Targets = TARGETS) -> list[str]:
    """The targets this model's row misses, in words (empty: all met)."""
    return [f"not {c.label}" for c in target_checks(row, t) if not c.passed]


def _figure(value: float, unit: str) -> str:
    return f"{value * 100:.1f}%" if unit == "share" else f"{value:.1f}{' s' if unit == 's' else ''}"


def format_targets(table: dict[str, dict[str, float]], t: Targets = TARGETS) -> list[str]:
    """The targets block of the report: pass or FAIL per model and target, with the director's figure
    against its bound."""
    if not table:
        return []
    checks = {skill: target_checks(row, t) for skill, row in table.items()}
    labels = [c.label for c in next(iter(checks.values()))]
    width = max(len(x) for x in labels) + 1
    lines = [
        "Targets (Director 3, presence and pace): pass or FAIL, the director's figure against its bound",
        f"{'model':<9}| " + " | ".join(f"{x:<{width}}" for x in labels) + " | all",
    ]
    for skill, cs in checks.items():
        cells = []
        for c in cs:
            floor = c.name in ("engaged", "kills")  # a lower bound; the others are upper bounds
            sign = (">=" if c.passed else "<") if floor else ("<=" if c.passed else ">")
            verdict = "pass" if c.passed else "FAIL"
            text = f"{verdict} {_figure(c.director, c.unit)} {sign} {_figure(c.bound, c.unit)}"
            cells.append(f"{text:<{width}}")
        met = all(c.passed for c in cs)
        lines.append(f"{skill:<9}| " + " | ".join(cells) + f" | {'met' if met else 'MISSED'}")
    n_met = sum(all(c.passed for c in cs) for cs in checks.values())
    lines.append(f"{n_met} of {len(checks)} models meet every target.")
    return lines


def targets_json(
    table: dict[str, dict[str, float]], seconds: float, t: Targets = TARGETS
) -> list[dict[str, Any]]:
    """Per model: whether it met every target and each target's check, for ``--json``."""
    out = []
    for skill, row in table.items():
        checks = target_checks(row, t)
        out.append(
            {
                "seconds": seconds,
                "model": skill,
                "met": all(c.passed for c in checks),
                "targets": {
                    c.name: {
                        k: round(v, 4) if isinstance(v, float) else v
                        for k, v in asdict(c).items()
                        if k != "name"
                    }
                    for c in checks
                },
            }
        )
    return out
