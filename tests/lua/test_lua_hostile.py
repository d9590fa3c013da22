"""Hostile Lua: every snippet ends within 2 s with a clear error of the expected kind, and the host keeps
working afterwards (a legit call in the same sandbox and one in another sandbox still succeed).

Four groups: OS/filesystem/VM escape, Python-bridge escape, resource exhaustion, cross-mod interference.
"""

from __future__ import annotations

import pytest
from lua_fakehost import FakeHost
from lua_hostile_cases import CROSS_MOD, ESCAPE_OS, ESCAPE_PYTHON, EXHAUSTION, SPIN

from coreai.lua.manager import ModManager


def _legit_still_works(manager: ModManager, host: FakeHost, sandbox: str) -> None:
    again = manager.execute("return 1 + 1", mod=sandbox)
    assert again.ok, again.error
    assert again.values == [2]
    before = host.count("grunt")
    other = manager.execute("return #coreai_world_spawn('grunt', 10, 20, 2)", mod="legit")
    assert other.ok, other.error
    assert other.values == [2]
    assert host.count("grunt") == before + 2


def _check(manager: ModManager, host: FakeHost, code: str, kind: str, fragment: str) -> None:
    result = manager.execute(code, mod="hostile")
    assert not result.ok, f"hostile snippet succeeded: {result.values}"
    assert result.error_kind == kind, result.error
    assert fragment.lower() in (result.error or "").lower(), result.error
    _legit_still_works(manager, host, "hostile")


@pytest.mark.timeout(2)
@pytest.mark.parametrize(
    ("code", "kind", "fragment"), [c[1:] for c in ESCAPE_OS], ids=[c[0] for c in ESCAPE_OS]
)
def test_os_filesystem_vm_escape(
    manager: ModManager, host: FakeHost, code: str, kind: str, fragment: str
) -> None:
    _check(manager, host, code, kind, fragment)


@pytest.mark.timeout(2)
@pytest.mark.parametrize(
    ("code", "kind", "fragment"), [c[1:] for c in ESCAPE_PYTHON], ids=[c[0] for c in ESCAPE_PYTHON]
)
def test_python_bridge_escape(
    manager: ModManager, host: FakeHost, code: str, kind: str, fragment: str
) -> None:
    _check(manager, host, code, kind, fragment)


@pytest.mark.timeout(2)
@pytest.mark.parametrize(
    ("code", "kind", "fragment"), [c[1:] for c in EXHAUSTION], ids=[c[0] for c in EXHAUSTION]
)
def test_resource_exhaustion(
    manager: ModManager, host: FakeHost, code: str, kind: str, fragment: str
) -> None:
    _check(manager, host, code, kind, fragment)


@pytest.mark.timeout(2)
@pytest.mark.parametrize(
    ("attack", "kind", "fragment", "check", "expected"),
    [c[1:] for c in CROSS_MOD],
    ids=[c[0] for c in CROSS_MOD],
)
def test_cross_mod_interference(
    manager: ModManager, host: FakeHost, attack: str, kind: str, fragment: str, check: str, expected: object
) -> None:
    warm = manager.execute(check, mod="victim")  # the victim exists before the attack
    assert warm.ok and warm.values == [expected], warm.error
    result = manager.execute(attack, mod="attacker")
    assert not result.ok and result.error_kind == kind, result.error
    assert fragment.lower() in (result.error or "").lower(), result.error
    after = manager.execute(check, mod="victim")
    assert after.ok, after.error
    assert after.values == [expected]
    _legit_still_works(manager, host, "attacker")


@pytest.mark.timeout(2)
def test_rng_seeding_is_per_sandbox(manager: ModManager) -> None:
    reference = manager.execute(
        "math.randomseed(7) return math.random(1, 10^9), math.random(1, 10^9)", mod="ref"
    )
    first = manager.execute("math.randomseed(7) return math.random(1, 10^9)", mod="victim")
    attack = manager.execute(
        "math.randomseed(42) for i = 1, 100 do math.random() end error('reseeded', 0)", mod="attacker"
    )
    second = manager.execute("return math.random(1, 10^9)", mod="victim")
    assert not attack.ok and attack.error_kind == "runtime" and "reseeded" in (attack.error or "")
    assert [first.values[0], second.values[0]] == reference.values


@pytest.mark.timeout(2)
def test_spinning_metamethods_on_returned_values_never_run(manager: ModManager) -> None:
    mt = "{__tostring = S, __index = S, __newindex = S, __pairs = S, __len = S, __eq = S, __name = 'x'}"
    result = manager.execute(f"local S = {SPIN} return setmetatable({{a = 1}}, {mt}), 'tail'", mod="hostile")
    assert result.ok, result.error
    assert result.values == [{"a": 1}, "tail"]


def test_suite_has_at_least_40_snippets() -> None:
    assert len(ESCAPE_OS) + len(ESCAPE_PYTHON) + len(EXHAUSTION) + len(CROSS_MOD) >= 40
    assert min(len(ESCAPE_OS), len(ESCAPE_PYTHON), len(EXHAUSTION), len(CROSS_MOD)) >= 10
