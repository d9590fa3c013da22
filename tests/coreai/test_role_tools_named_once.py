"""A role's tools are named once: where the tool is registered (``add_tool(..., roles=...)``), or for the
core's own tools in ``coreai.roles.CORE_TOOL_ROLES``; the role definitions name none."""

from __future__ import annotations

from pathlib import Path

from coreai.roles import CORE_TOOL_ROLES, DEFAULT_ROLES
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings


def test_role_definitions_name_no_tools() -> None:
    assert all(cfg.tools == () for cfg in DEFAULT_ROLES.values())


def test_the_runtime_gives_each_core_tool_to_its_roles_only(saves_dir: Path) -> None:
    runtime = CoreAiRuntime(Settings())
    try:
        orch = runtime.orchestrator
        for role in DEFAULT_ROLES:
            want = {name for name, roles in CORE_TOOL_ROLES.items() if role in roles}
            assert set(orch.role_tools(role)) == want, role
        assert set(orch.role_tools("Creator")) == {"memory", "get_game_state", "world_command"}
        assert orch.role_tools("Chat") == {}
    finally:
        runtime.close(wait=False)


def test_a_game_tool_names_its_roles_at_registration(saves_dir: Path) -> None:
    from game.shop import install_shop

    runtime = CoreAiRuntime(Settings())
    try:

        class Handle:
            world = None

        shop = install_shop(runtime, Handle())
        assert shop is not None
        merchant = set(runtime.orchestrator.role_tools("Merchant"))
        assert "memory" in merchant and len(merchant) > 1, merchant
        assert not merchant - {"memory"} & set(runtime.orchestrator.role_tools("Creator"))
    finally:
        runtime.close(wait=False)
