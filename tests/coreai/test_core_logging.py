"""Logging: feature tags and level change at run time; the file sink rotates under saves/logs/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from loguru import logger

from coreai.errors import SettingsError
from coreai.logging import configure_logging, enabled_features, set_features, set_level
from coreai.settings import LogSettings


@pytest.fixture
def logfile(saves_dir: Path) -> Iterator[Path]:
    configure_logging(LogSettings(level="INFO", console=False, file=True, file_level="INFO"))
    yield saves_dir / "logs" / "coreai.log"
    set_features(None)
    configure_logging(LogSettings(console=False, file=False))


def read(path: Path) -> str:
    logger.complete()  # the file sink is enqueued
    return path.read_text(encoding="utf-8")


def test_lines_carry_feature_and_trace_id(logfile: Path):
    logger.bind(feature="llm", trace_id="abc123").info("hello from the llm")
    logger.info("untagged line")
    text = read(logfile)
    line = next(ln for ln in text.splitlines() if "hello from the llm" in ln)
    assert "| llm " in line and "abc123" in line
    assert "untagged line" in text


def test_features_and_level_change_while_running(logfile: Path):
    set_features(["world"])
    assert enabled_features() == {"world"}
    logger.bind(feature="llm").info("llm while muted")
    logger.bind(feature="world").info("world while llm muted")
    set_features(None)
    set_level("WARNING", file_level="WARNING")
    logger.bind(feature="world").info("info after raising the level")
    logger.bind(feature="world").warning("warning after raising the level")
    set_level("DEBUG", file_level="DEBUG")
    logger.bind(feature="lua").debug("debug after lowering the level")
    text = read(logfile)
    assert "llm while muted" not in text and "world while llm muted" in text
    assert "info after raising" not in text and "warning after raising" in text
    assert "debug after lowering" in text


def test_bad_features_and_levels_are_settings_errors(logfile: Path):
    with pytest.raises(SettingsError) as info:
        set_features(["llm", "weather"])
    assert info.value.key == "logging.features"
    with pytest.raises(SettingsError):
        set_level("LOUD")  # type: ignore[arg-type]


def test_files_rotate(saves_dir: Path):
    configure_logging(LogSettings(console=False, file=True, file_level="INFO", rotation="2 KB", retention=3))
    try:
        for i in range(200):
            logger.bind(feature="game").info("line {} {}", i, "x" * 60)
        logger.complete()
        files = sorted((saves_dir / "logs").glob("coreai*.log"))
        assert 2 <= len(files) <= 4  # rotated, and old files beyond the retention were removed
    finally:
        configure_logging(LogSettings(console=False, file=False))
