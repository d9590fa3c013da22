"""coreai/ is engine-agnostic: no module under it imports arcade or pyglet (checked on the AST)."""

from __future__ import annotations

import ast

from coreai.paths import REPO_ROOT

FORBIDDEN = {"arcade", "pyglet"}


def engine_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
            "import_module",
            "__import__",
        ):
            names = [
                a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
        found += [n for n in names if n.split(".")[0] in FORBIDDEN]
    return found


def test_the_checker_catches_every_import_form():
    src = "import arcade\nfrom pyglet.gl import x\nimport os, arcade.gui\nimportlib.import_module('pyglet')\n"
    assert engine_imports(src) == ["arcade", "pyglet.gl", "arcade.gui", "pyglet"]
    assert engine_imports("import arcadia\nfrom . import arcade\n") == []


def test_no_module_under_coreai_imports_the_engine():
    files = sorted((REPO_ROOT / "coreai").rglob("*.py"))
    assert len(files) > 20
    offenders = {
        str(f.relative_to(REPO_ROOT)): hits for f in files if (hits := engine_imports(f.read_text("utf-8")))
    }
    assert offenders == {}
