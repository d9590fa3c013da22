"""Logging setup for the game and the AI core: loguru sinks filtered by feature tag, changeable while running.

Library code logs through ``logger.bind(feature=..., trace_id=...)`` with one of the feature tags
(llm, lua, world, director, mcp, metrics, game). ``configure_logging`` installs a console sink and a rotating
file sink in ``saves/logs/``; ``set_level`` and ``set_features`` change what is written at run time (the
sinks are re-added with the new level so a filtered-out debug line costs a fraction of a microsecond).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from loguru import logger
from pydantic import ValidationError

from coreai.errors import SettingsError
from coreai.paths import logs_dir
from coreai.settings import ALL_FEATURES, LogLevel, LogSettings

# loguru appends "\n{exception}" to a string format itself.
LINE_FORMAT = "{time:HH:mm:ss.SSS} | {level: <7} | {extra[feature]: <8} | {extra[trace_id]: <12} | {message}"

_lock = threading.Lock()
_handler_ids: list[int] = []
_settings = LogSettings()
_log_dir: Path | None = None
_features: frozenset[str] = frozenset(ALL_FEATURES)


def _filter(record: Any) -> bool:
    extra = record["extra"]
    if extra.get("feature") is None:
        extra["feature"] = "-"
    if extra.get("trace_id") is None:  # bound as None by code that has no task yet
        extra["trace_id"] = "-"
    feature = extra["feature"]
    return feature == "-" or feature in _features


def _install() -> None:
    """(Re)create this module's sinks from ``_settings``; the caller holds ``_lock``."""
    for handler_id in _handler_ids:
        with contextlib.suppress(ValueError):
            logger.remove(handler_id)
    _handler_ids.clear()
    if _settings.console:
        _handler_ids.append(logger.add(sys.stderr, level=_settings.level, format=LINE_FORMAT, filter=_filter))
    if _settings.file:
        folder = _log_dir if _log_dir is not None else logs_dir()
        folder.mkdir(parents=True, exist_ok=True)
        _handler_ids.append(
            logger.add(
                folder / "coreai.log",
                level=_settings.file_level,
                format=LINE_FORMAT,
                filter=_filter,
                rotation=_settings.rotation,
                retention=_settings.retention,
                encoding="utf-8",
                enqueue=True,
            )
        )


def configure_logging(settings: LogSettings | None = None, *, log_dir: Path | None = None) -> None:
    """Replace loguru's default stderr handler (and any earlier configuration) with ours."""
    global _settings, _log_dir, _features
    with _lock:
        with contextlib.suppress(ValueError):
            logger.remove(0)  # loguru's default handler; absent after the first call
        _settings = settings or LogSettings()
        _log_dir = log_dir
        _features = frozenset(_settings.features)
        _install()


def set_level(level: LogLevel, *, file_level: LogLevel | None = None) -> None:
    """Change the console level (and optionally the file level) while running."""
    global _settings
    with _lock:
        update: dict[str, Any] = {"level": level}
        if file_level is not None:
            update["file_level"] = file_level
        try:
            _settings = LogSettings.model_validate({**_settings.model_dump(), **update})
        except ValidationError as exc:
            raise SettingsError("logging.level", f"not a log level: {update}") from exc
        _install()


def set_features(features: Iterable[str] | None) -> None:
    """Only log lines whose feature tag is listed; None enables every feature."""
    global _features
    chosen = frozenset(ALL_FEATURES) if features is None else frozenset(features)
    unknown = chosen - set(ALL_FEATURES)
    if unknown:
        raise SettingsError("logging.features", f"unknown {sorted(unknown)}; known: {list(ALL_FEATURES)}")
    _features = chosen


def enabled_features() -> frozenset[str]:
    return _features


def current_settings() -> LogSettings:
    return _settings
