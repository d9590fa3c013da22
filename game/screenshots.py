"""Screenshots of the game window: F12 saves the next drawn frame as a PNG under ``saves/screenshots/``
(written atomically; names never collide)."""

from __future__ import annotations

import io
import time
from pathlib import Path

import arcade
from loguru import logger

from coreai.paths import screenshots_dir
from coreai.persist import atomic_write_bytes

log = logger.bind(feature="game", trace_id=None)


def next_screenshot_path() -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{int(time.time() * 1000) % 1000:03d}"
    path = screenshots_dir() / f"arena-{stamp}.png"
    n = 1
    while path.exists():
        path = path.with_name(f"arena-{stamp}-{n}.png")
        n += 1
    return path


def write_framebuffer_png(path: Path | None = None) -> Path:
    """Write the current framebuffer as a PNG (call after drawing a frame, on the main thread)."""
    image = arcade.get_image()
    target = path if path is not None else next_screenshot_path()
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    atomic_write_bytes(target, buf.getvalue())
    log.info("screenshot saved to {}", target)
    return target
