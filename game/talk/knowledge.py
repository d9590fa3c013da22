"""The Chat's knowledge file, ``assets/talk/knowledge.jsonl``: game facts built from the game's own text.

Sources: what the game's data states (``game.talk.game_facts``: the F1 help, the prefab, weapon, upgrade
and shop data, the coin rule, the shipped mods) and the skill docs under ``prompts/skills/`` (here).
``build_entries()`` reads them; ``python -m game.talk.knowledge`` writes the file (``make`` does too) and a
test checks the file matches, so the Chat's facts cannot drift from the game.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from coreai.paths import shipped_dir
from coreai.persist import loads_json
from game.talk.game_facts import Fact, game_facts
from game.talk.text import sentences

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


def _doc_sentences(path: Path, topic: str, keys: str, per_section: int = 3) -> list[Fact]:
    """The first one or two sentences of each plain paragraph of a skill doc (code, tables and what is
    said to agents skipped), at most ``per_section`` per section."""
    out: list[Fact] = []
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
            Fact(
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


def _docs() -> list[Fact]:
    skills = shipped_dir("prompts", "skills")
    about = Fact(
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
    raws = [*game_facts(), *_docs()]
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
