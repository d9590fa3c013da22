"""Screenshot post-processing for MCP: check the bytes are a PNG and downscale to the longest side asked for.

Runs on the server's worker thread (never the game's main thread), so encoding cost stays off the frame.
"""

from __future__ import annotations

import io
import threading

from PIL import Image, UnidentifiedImageError

from coreai.errors import McpError
from coreai.mcp.resources import ResourceSpec

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def fit_png(data: bytes, max_resolution: int) -> tuple[bytes, tuple[int, int]]:
    """PNG bytes whose longest side is at most ``max_resolution``; returns (png, (width, height))."""
    if not isinstance(data, bytes | bytearray) or not bytes(data[:8]) == PNG_MAGIC:
        raise McpError("screenshot service did not return PNG bytes")
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.load()
            width, height = img.size
            if max(width, height) <= max_resolution:
                return bytes(data), (width, height)
            scale = max_resolution / max(width, height)
            size = (max(1, round(width * scale)), max(1, round(height * scale)))
            mode = "RGBA" if "A" in img.getbands() else "RGB"
            small = img.convert(mode).resize(size, Image.Resampling.LANCZOS)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise McpError(f"screenshot PNG could not be decoded: {exc}") from exc
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=False)
    return out.getvalue(), size


def fit_bytes(data: bytes, size: tuple[int, int], max_bytes: int) -> tuple[bytes, tuple[int, int]]:
    """Downscale a PNG (3/4 per try) until it is at most ``max_bytes``; ``McpError`` if 64 px is over."""
    while len(data) > max_bytes:
        side = int(max(size) * 0.75)
        if side < 64:
            raise McpError(f"no screenshot fits in {max_bytes} bytes (64 px is {len(data)} bytes)")
        data, size = fit_png(data, side)
    return data, size


class ShotStore:
    """The last ``keep`` screenshots taken as links, served as the resource ``<prefix>{n}`` (PNG bytes)."""

    def __init__(self, prefix: str = "arena://screenshots/", keep: int = 8) -> None:
        self.prefix = prefix
        self.keep = keep
        self._shots: dict[int, bytes] = {}
        self._next = 1
        self._lock = threading.Lock()

    def put(self, png: bytes) -> str:
        with self._lock:
            n, self._next = self._next, self._next + 1
            self._shots[n] = png
            for old in sorted(self._shots)[: -self.keep]:
                del self._shots[old]
        return f"{self.prefix}{n}"

    def read(self, n: str) -> bytes:
        with self._lock:
            png = self._shots.get(int(n)) if n.isdigit() else None
        if png is None:
            raise McpError(f"no screenshot {n[:20]} (the last {self.keep} are kept)", status=404)
        return png

    def spec(self) -> ResourceSpec:
        return ResourceSpec(
            self.prefix + "{n}",
            "screenshot",
            f'A screenshot taken with screenshot {{"as_link": true}} (PNG; the last {self.keep} are kept).',
            self.read,
            "image/png",
        )
