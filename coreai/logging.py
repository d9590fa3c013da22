"""Logging setup for the game and the AI core: loguru sinks filtered by feature tag, changeable while running.

Library code logs through ``logger.bind(feature=..., trace_id=...)`` with one of the feature tags
(llm, lua, world, director, mcp, metrics, game). ``configure_logging`` installs a console sink and a rotating
file sink in ``saves/logs/``; ``set_level`` and ``set_features`` change what is written at run time (the
sinks are re-added with the new level so a filtered-out debug line costs a fraction of a microsecond).

Libraries that log through the standard ``logging`` module (uvicorn, the mcp SDK, httpx/httpcore, openai)
are routed into the same sinks by ``route_stdlib_logging`` (called by ``configure_logging``): their lines
get the ``mcp`` or ``llm`` feature tag, so there is one log.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from types import FrameType
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


# stdlib logger name prefix -> feature tag; the chatty per-request INFO lines of some go to DEBUG.
STDLIB_FEATURES: dict[str, str] = {
    "uvicorn": "mcp",
    "mcp": "mcp",
    "sse_starlette": "mcp",
    "starlette": "mcp",
    "httpx": "llm",
    "httpx2": "llm",
    "httpcore": "llm",
    "httpcore2": "llm",
    "openai": "llm",
}
_CHATTY = ("uvicorn.access", "httpx", "httpcore", "mcp.server.lowlevel", "mcp.server.streamable_http")


def stdlib_feature(name: str) -> str:
    for prefix, feature in STDLIB_FEATURES.items():
        if name == prefix or name.startswith(prefix + "."):
            return feature
    return "-"


class InterceptHandler(logging.Handler):
    """Hands stdlib log records to loguru, tagged with the feature of the library that wrote them."""

    def emit(self, record: logging.LogRecord) -> None:
        level: str | int
        try:
            level = logger.level(record.levelname).name
        except ValueError:
            level = record.levelno
        if level == "INFO" and record.name.startswith(_CHATTY):
            level = "DEBUG"
        frame: FrameType | None = logging.currentframe()
        depth = 0
        while frame is not None and (depth == 0 or frame.f_code.co_filename == logging.__file__):
            frame, depth = frame.f_back, depth + 1
        logger.bind(feature=stdlib_feature(record.name), trace_id=record.name).opt(
            depth=depth, exception=record.exc_info
        ).log(level, "{}", record.getMessage())


_intercept = InterceptHandler()


def route_stdlib_logging() -> None:
    """Put one handler on the root logger that forwards to loguru (idempotent). The root keeps its level
    (other libraries' warnings come through); the listed libraries log from INFO up unless they set a level
    themselves, so their debug chatter is not even formatted."""
    root = logging.getLogger()
    if _intercept not in root.handlers:
        root.addHandler(_intercept)
    for name in STDLIB_FEATURES:
        lib = logging.getLogger(name)
        if lib.level == logging.NOTSET:
            lib.setLevel(logging.INFO)


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
    route_stdlib_logging()


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
