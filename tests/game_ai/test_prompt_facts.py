"""Role prompts name the game's facts by placeholder, filled from the game's data by the session: the
Creator, Programmer and Chat see the prefab whitelist as it is, never a stale copy (they listed five
prefabs while the game had nine)."""

from __future__ import annotations

from pathlib import Path

from coreai.prompts import PromptLibrary
from coreai.settings import Settings
from game.ai.backends import BackendSetup, offline_stub
from game.ai.session import AiSession
from game.options import LaunchOptions
from game.sim.prefabs import PrefabRegistry

ALL_STUB = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})


def test_the_session_fills_the_prefab_whitelist_into_the_role_prompts(saves_dir: Path) -> None:
    setup = BackendSetup(registry={"stub": offline_stub()}, routes={})
    session = AiSession(LaunchOptions(), settings=ALL_STUB, setup=setup, configure_logs=False)
    try:
        names = PrefabRegistry.load().names
        for role in ("Creator", "Programmer", "Chat"):
            text = session.runtime.prompts.role(role)
            assert "{{" not in text, role
            assert all(n in text for n in names), (role, [n for n in names if n not in text])
        prefix = session.runtime.orchestrator.composer.prefix("Creator", "", [])
        assert "charger" in prefix and "{{prefabs}}" not in prefix
    finally:
        session.close()


def test_placeholders_fill_from_variables_and_unknown_ones_stay(tmp_path: Path) -> None:
    (tmp_path / "roles").mkdir()
    (tmp_path / "roles" / "Scout.md").write_text("Spawn {{prefabs}}; keep {{unknown}} and {json}.", "utf-8")
    lib = PromptLibrary([tmp_path], {"prefabs": "a, b"})
    assert lib.role("Scout") == "Spawn a, b; keep {{unknown}} and {json}."
    assert PromptLibrary([tmp_path]).role("Scout").startswith("Spawn {{prefabs}}")
