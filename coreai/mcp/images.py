"""Screenshot post-processing for MCP: check the bytes are a PNG and downscale to the longest side asked for.

Runs on the server's worker thread (never the game's main thread), so encoding cost stays off the frame.
"""

from __future__ import annotations

import io

from PIL import Image, UnidentifiedImageError

from coreai.errors import McpError

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
