"""The README's and the docs' relative links resolve: each linked file exists, each ``#anchor`` is a heading
(``scripts/check_doc_links.py``, which a writer can run by hand)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_doc_links", ROOT / "scripts" / "check_doc_links.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_and_docs_links_resolve() -> None:
    check = _checker()
    more = [ROOT / "coreai" / "mcp" / "README.md", *(ROOT / "game" / "eval").glob("*.md")]
    files = [*check.default_files(), *more]
    assert [p for f in files for p in check.broken_links(f)] == []


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    check = _checker()
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n[ok](#title) [gone](missing.md) [bad](#nope) `[code](x.md)`\n"
        "\n```\n[fenced](y.md)\n```\n",
        encoding="utf-8",
    )
    problems = check.broken_links(page)
    assert len(problems) == 2
    assert "missing.md: no such file" in problems[0] and "#nope: no heading" in problems[1]
    assert "use-another-model-server" in check.anchors(ROOT / "README.md")
