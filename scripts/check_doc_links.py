"""Check the relative links of the README and ``docs/*.md``: each file exists, each ``#anchor`` is a heading.

    python scripts/check_doc_links.py              # README.md and docs/*.md
    python scripts/check_doc_links.py FILE.md ...  # those files

Web links (http, https, mailto) are not checked. Anchors follow GitHub's rule: the heading in lower case,
punctuation dropped, spaces as hyphens, a repeated heading numbered ``-1``, ``-2``. Exit status 1 when a
link is broken, with one line for each.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def _prose(text: str) -> str:
    """The markdown with fenced code blocks blanked out (a ``# comment`` in a block is no heading)."""
    return _FENCE.sub("", text)


def anchors(path: Path) -> set[str]:
    out: set[str] = set()
    seen: dict[str, int] = {}
    for title in _HEADING.findall(_prose(path.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(path: Path) -> list[str]:
    text = _CODE.sub("", _prose(path.read_text(encoding="utf-8")))
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    problems: list[str] = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            problems.append(f"{name}: {target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{name}: {target}: no heading #{anchor}")
    return problems


def default_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def main(argv: list[str]) -> int:
    files = [Path(a).resolve() for a in argv] or default_files()
    problems = [p for f in files for p in broken_links(f)]
    for line in problems:
        sys.stderr.write(line + "\n")
    sys.stderr.write(f"{len(files)} files, {len(problems)} broken links\n")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
