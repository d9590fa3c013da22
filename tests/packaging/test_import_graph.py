"""The house stays standing: the import graph of ``game/`` and ``coreai/`` has no circle, and no module grows
past 400 lines, except what the two allow-lists below name, each with its reason.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` counts, at module
level, inside a function, or under ``if TYPE_CHECKING:``. ``from pkg import name`` is an edge to the module
``pkg.name`` where that is a module, else to ``pkg`` (its ``__init__``). A circle is a strongly connected
component of that graph; the test names its files.

A circle may stay only where it is type-only (it is gone once the ``TYPE_CHECKING`` imports are dropped) and
a protocol would add nothing, and it must never pass through the shell or the AI session. A circle inside a
package that another open issue is rewriting is listed as pending, by its exact modules, so it cannot grow.

``python tests/packaging/test_import_graph.py`` prints every circle and long module, allowed or not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("game", "coreai")
MAX_LINES = 400

# type-only circles that may stay: the set of modules, and why
TYPE_ONLY_CIRCLES: dict[frozenset[str], str] = {
    frozenset(
        f"game.sim.{m}"
        for m in (
            "combat",
            "enemy_ai",
            "enemy_kinds",
            "placement",
            "readout",
            "spawner",
            "upgrades",
            "view",
            "weapons",
            "world",
        )
    ): "the simulation's systems are functions over the World that World.step calls; they name World only "
    "in their type hints, and a protocol would restate World's whole surface",
}
# circles that import at run time, in packages another open issue is rewriting now: exact modules, and why
PENDING_CIRCLES: dict[frozenset[str], str] = {}

# the shell (the window, its views and what they configure) and the AI session: no circle may touch these
NO_CIRCLE_PREFIXES = (
    "game.app",
    "game.app_keys",
    "game.views",
    "game.prefs",
    "game.meta",
    "game.options_menu",
    "game.ports",
    "game.ai.session",
    "game.ai.port",
    "game.ai.wiring",
    "game.ai.warmup",
    "game.ai.discovered",
    "game.ai.director_switch",
    "game.agents.wiring",
    "game.play.wiring",
)

# modules over MAX_LINES that may stay so for now: path, and why
ALLOWED_LONG: dict[str, str] = {}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    type_only: bool  # under ``if TYPE_CHECKING:``
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> list[Path]:
    return sorted(p for root in ROOTS for p in (REPO / root).rglob("*.py"))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterable[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement, with whether it sits under ``if TYPE_CHECKING:``."""

    def walk(node: ast.AST, type_only: bool) -> Iterable[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, type_only
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), True)
                for stmt in child.orelse:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), type_only)
            else:
                yield from walk(child, type_only)

    return walk(tree, False)


def build_graph() -> tuple[set[str], list[Edge]]:
    files = source_files()
    modules = {module_name(p) for p in files}
    packages = {module_name(p) for p in files if p.name == "__init__.py"}
    edges: list[Edge] = []
    for path in files:
        name = module_name(path)
        package = name if name in packages else name.rpartition(".")[0]
        for node, type_only in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                while target and target not in modules:  # `import game.x.y as z`: the nearest module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.append(Edge(name, target, type_only, node.lineno))
    return modules, edges


def circles(modules: set[str], edges: list[Edge]) -> list[frozenset[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    succ: dict[str, set[str]] = {m: set() for m in modules}
    for e in edges:
        succ[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(succ[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.add(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return sorted(found, key=lambda c: sorted(c))


def describe(component: frozenset[str], edges: list[Edge]) -> str:
    """The circle's modules and each import inside it (one line per pair of modules)."""
    inner: dict[tuple[str, str], list[Edge]] = {}
    for e in edges:
        if e.source in component and e.target in component:
            inner.setdefault((e.source, e.target), []).append(e)
    lines = [f"circle of {len(component)} modules: {', '.join(sorted(component))}"]
    for (source, target), found in sorted(inner.items()):
        at = ",".join(str(n) for n in sorted({e.line for e in found}))
        kind = "  (TYPE_CHECKING)" if all(e.type_only for e in found) else ""
        lines.append(f"    {source.replace('.', '/')}.py:{at} -> {target}{kind}")
    return "\n".join(lines)


def line_counts() -> dict[str, int]:
    return {str(p.relative_to(REPO)): len(p.read_text(encoding="utf-8").splitlines()) for p in source_files()}


def test_no_import_circle_but_the_allowed_type_only_ones() -> None:
    modules, edges = build_graph()
    found = circles(modules, edges)
    runtime = circles(modules, [e for e in edges if not e.type_only])
    problems: list[str] = []
    for component in found:
        shell = sorted(m for m in component if m.startswith(NO_CIRCLE_PREFIXES))
        if shell:
            problems.append(
                f"through the shell or the AI session ({', '.join(shell)}):\n{describe(component, edges)}"
            )
        elif component in TYPE_ONLY_CIRCLES:
            if any(c & component for c in runtime):
                problems.append(
                    f"allowed as type-only, but it imports at run time:\n{describe(component, edges)}"
                )
        elif component not in PENDING_CIRCLES:
            problems.append(describe(component, edges))
    stale = [sorted(c) for c in (*TYPE_ONLY_CIRCLES, *PENDING_CIRCLES) if c not in found]
    assert not problems, "\n\n".join(problems)
    assert not stale, f"allowed circles that are gone (drop them from the allow-list): {stale}"


def test_no_module_over_400_lines_but_the_allowed_ones() -> None:
    long = {path: n for path, n in line_counts().items() if n > MAX_LINES}
    unexplained = {path: n for path, n in long.items() if path not in ALLOWED_LONG}
    stale = sorted(set(ALLOWED_LONG) - set(long))
    assert not unexplained, (
        f"modules over {MAX_LINES} lines (split them, or allow one with its reason): {unexplained}"
    )
    assert not stale, f"allowed long modules that are no longer long (drop them from ALLOWED_LONG): {stale}"


def main() -> None:
    """Print every circle (with what allows it) and every module over the limit."""
    modules, edges = build_graph()
    allowed = {**{c: f"type-only: {r}" for c, r in TYPE_ONLY_CIRCLES.items()}, **PENDING_CIRCLES}
    found = circles(modules, edges)
    print(f"{len(modules)} modules, {len(edges)} imports, {len(found)} circles")
    for component in found:
        print(describe(component, edges))
        print(f"  allowed: {allowed.get(component, 'NO')}\n")
    for path, n in sorted(line_counts().items(), key=lambda kv: -kv[1]):
        if n > MAX_LINES:
            print(f"{path}: {n} lines; allowed: {ALLOWED_LONG.get(path, 'NO')}")


if __name__ == "__main__":
    main()
