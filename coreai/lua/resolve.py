"""Which mods may load, and in which order: dependencies (with version ranges), conflicts, load order and the
game version a mod needs, checked across every discovered mod before any of them starts.

``resolve`` returns the load order of the mods that may run and, per mod, the reason it may not (a missing
or disabled dependency, a dependency of the wrong version or one that cannot load itself, a conflict with an
enabled mod, a dependency cycle, a game that is too old). Dependencies load before the mods that need them;
otherwise ``load_order`` (lower first), then the name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from coreai.lua.manifest import ModManifest


@dataclass
class Resolution:
    order: list[str] = field(default_factory=list)  # the mods that may load, in load order
    problems: dict[str, str] = field(default_factory=dict)  # mod -> why it does not load


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def resolve(manifests: Mapping[str, ModManifest], enabled: set[str], game_version: str) -> Resolution:
    """``manifests``: every discovered mod with a valid manifest; ``enabled``: the ones the player has on."""
    out = Resolution()
    game = _version(game_version)
    wanted = {n for n in manifests if n in enabled}
    for name in sorted(wanted):
        m = manifests[name]
        need = _version(m.min_game_version) if m.min_game_version else None
        if need is not None and game is not None and game < need:
            out.problems[name] = f"needs game version {m.min_game_version} or newer (this is {game_version})"
            continue
        for dep, spec in sorted(m.dependencies.items()):
            if dep not in manifests:
                out.problems[name] = f"needs mod '{dep}' {spec}".rstrip() + ", which is not installed"
                break
            if dep not in enabled:
                out.problems[name] = f"needs mod '{dep}', which is disabled"
                break
            have = _version(manifests[dep].version)
            if spec and (have is None or have not in SpecifierSet(spec)):
                out.problems[name] = f"needs mod '{dep}' {spec}, but {manifests[dep].version} is installed"
                break
    # a mod whose dependency cannot load cannot load either (repeat until nothing changes)
    changed = True
    while changed:
        changed = False
        for name in sorted(wanted - set(out.problems)):
            bad = next((d for d in sorted(manifests[name].dependencies) if d in out.problems), None)
            if bad is not None:
                out.problems[name] = f"needs mod '{bad}', which cannot load ({out.problems[bad]})"
                changed = True
    for name in sorted(wanted - set(out.problems)):
        clash = [c for c in manifests[name].conflicts if c in wanted and c not in out.problems and c != name]
        if clash:
            out.problems[name] = f"conflicts with enabled mod '{clash[0]}'; disable one of them"
    ok = wanted - set(out.problems)
    # dependencies first; ties by load_order, then name (Kahn's algorithm with a sorted frontier)
    pending = {n: {d for d in manifests[n].dependencies if d in ok} for n in ok}
    while pending:
        free = [n for n, deps in pending.items() if not deps]
        ready = sorted(free, key=lambda n: (manifests[n].load_order, n))
        if not ready:
            out.problems.update(_cycle_problems(pending))
            break
        first = ready[0]
        out.order.append(first)
        del pending[first]
        for deps in pending.values():
            deps.discard(first)
    return out


def _cycle_through(start: str, deps: Mapping[str, set[str]]) -> list[str] | None:
    """The shortest dependency path from ``start`` back to itself (``[start, ..., start]``), or None."""
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        step: list[str] = []
        for node in frontier:
            for dep in sorted(deps.get(node, ())):
                if dep == start:
                    chain = [node]
                    while chain[-1] != start:
                        chain.append(parent[chain[-1]])
                    return [*reversed(chain), start]
                if dep not in parent:
                    parent[dep] = node
                    step.append(dep)
        frontier = step
    return None


def _cycle_problems(pending: Mapping[str, set[str]]) -> dict[str, str]:
    """Why each mod left when the load order stalls: a mod in a cycle names its own cycle (unrelated cycles
    are reported apart); a mod that only depends on one names the dependency and that dependency's cycle."""
    problems: dict[str, str] = {}
    cycles: dict[str, str] = {}
    for name in sorted(pending):
        path = _cycle_through(name, pending)
        if path is not None:
            cycles[name] = " -> ".join(path)
            problems[name] = f"is part of a dependency cycle: {cycles[name]}"
    changed = True
    while changed:  # the rest depend on a cycle, directly or through mods that do
        changed = False
        for name in sorted(set(pending) - set(problems)):
            deps = sorted(pending[name])
            in_cycle = next((d for d in deps if d in cycles), None)
            if in_cycle is not None:
                problems[name] = (
                    f"depends on '{in_cycle}', which is in a dependency cycle: {cycles[in_cycle]}"
                )
                changed = True
                continue
            blocked = next((d for d in deps if d in problems), None)
            if blocked is not None:
                problems[name] = f"needs mod '{blocked}', which cannot load ({problems[blocked]})"
                changed = True
    return problems
