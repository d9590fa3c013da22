"""Console commands that need no window: mod logs and live logging settings."""

from __future__ import annotations

from pathlib import Path

from coreai import logging as corelog
from coreai.settings import LogSettings, Settings
from game.ai.backends import BackendSetup, offline_stub
from game.ai.session import AiSession
from game.options import LaunchOptions
from game.render.ai_panels.console_model import ConsoleModel

ALL_STUB = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})


def test_logs_and_log_settings_commands(saves_dir: Path) -> None:
    corelog.configure_logging(LogSettings(console=False, file=False))
    setup = BackendSetup(registry={"stub": offline_stub()}, routes={})
    session = AiSession(LaunchOptions(), settings=ALL_STUB, setup=setup, configure_logs=False)
    try:
        session.on_run_start(session.world_factory(1))
        console = ConsoleModel(session, lambda task: None)
        console.run("/logs kill_streak")
        assert any("[kill_streak]" in t and "loaded" in t for t in console.texts())
        console.run("/log features lua,director")
        assert corelog.enabled_features() == frozenset({"lua", "director"})
        console.run("/log features all")
        assert "llm" in corelog.enabled_features()
        console.run("/log level LOUD")
        assert any("not a log level" in t for t in console.texts())
        console.run("/log level WARNING")
        assert any("log level is now WARNING" in t for t in console.texts())
    finally:
        corelog.configure_logging(LogSettings(console=False, file=False))
        corelog.set_features(None)
        session.close()
