"""The generated part of the director's skill doc, ``prompts/skills/director.md``: one table row per plan knob
of the knob table (``game/director/knobs.py``) and the maximum change per plan, between two markers. A test
checks the doc is current; ``python -m game.ai.director_skill_doc`` rewrites the block.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from game.director.knobs import MIX_WEIGHT, PLAN_KNOBS

BEGIN, END = "<!-- knobs:begin (generated from game/director/knobs.py) -->", "<!-- knobs:end -->"
_BLOCK = re.compile(re.escape(BEGIN) + r"\n(.*?)\n?" + re.escape(END), re.DOTALL)


def skill_doc_block() -> str:
    """The generated block: one table row per plan knob, and the steps."""
    rows = ["| knob | type | meaning |", "|---|---|---|"]
    rows += [
        f"| `{k.name}` | number {k.lo:g}..{k.hi:g} | optional; {k.help} (default {k.default:g}) |"
        for k in PLAN_KNOBS
    ]
    steps = [f"mix weights ±{MIX_WEIGHT.max_step or 0:g}"]
    steps += [f"`{k.name}` ±{k.max_step or 0:g}" for k in PLAN_KNOBS]
    return "\n".join(rows) + "\n\nMaximum change per plan: " + ", ".join(steps) + "; bigger asks are clamped."


def doc_block_in(text: str) -> str | None:
    found = _BLOCK.search(text)
    return found.group(1) if found else None


def write_skill_doc(path: Path) -> bool:
    """Rewrite the generated block of ``path``; True when it changed."""
    text = path.read_text(encoding="utf-8")
    new = _BLOCK.sub(lambda _m: f"{BEGIN}\n{skill_doc_block()}\n{END}", text)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":  # python -m game.ai.director_skill_doc: regenerate the skill doc's knob rows
    from coreai.paths import shipped_dir

    doc = shipped_dir("prompts", "skills") / "director.md"
    changed = write_skill_doc(doc)
    sys.stdout.write(f"{doc}: {'updated' if changed else 'already current'}\n")
