"""Tools that let a caller read and look: ``read_skill`` (the shipped reference docs) and ``screenshot``
(the current frame as a PNG, captured on the main thread, downscaled on the caller's thread)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from coreai.commands import CallOnMain
from coreai.tools.base import ImageResult, LinkResult, Tool, ToolContext

if TYPE_CHECKING:
    from coreai.mcp.images import ShotStore

READ_SKILL = """\
Return the full text of a reference document the game ships (markdown), the same one the in-game agents
read. Read "lua_modding" before writing any Lua. Names forgive case and spaces ("Lua Modding" works).
Example: {"name": "lua_modding"}
"""

SCREENSHOT = """\
Capture the current game frame as a PNG image, downscaled so its longest side is at most max_resolution
and, with max_bytes, further until the PNG fits in that many bytes. as_link: answer with a resource link
(arena://screenshots/N, read it when you need the pixels) instead of the image. Use it to see the result of
what you did (spawns, mods, UI, a frozen step). Fails with the reason when the game has no window
(headless run) or the capture failed.
Example: {"max_resolution": 768, "max_bytes": 200000}
"""


class SkillArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64, description="e.g. lua_modding")


def read_skill_tool(library: Callable[[str], str]) -> Tool:
    """``library(name) -> markdown`` (``coreai.mcp.SkillLibrary``); its ``names()`` join the description."""
    names_fn = getattr(library, "names", None)
    known = ", ".join(names_fn()) if callable(names_fn) else ""

    def invoke(args: SkillArgs, ctx: ToolContext) -> str:
        return library(args.name)

    description = READ_SKILL + (f"Available now: {known}.\n" if known else "")
    return Tool("read_skill", description, SkillArgs, invoke, returns="text")


def screenshot_tool(
    capture: Callable[[int], bytes], max_resolution: int = 1024, shots: ShotStore | None = None
) -> Tool:
    """``capture(max_resolution) -> PNG bytes`` runs on the main thread (it reads the framebuffer);
    ``shots`` keeps the PNGs asked for as links."""
    from coreai.mcp.images import fit_bytes, fit_png

    default = max_resolution

    class ScreenshotArgs(BaseModel):
        model_config = ConfigDict(extra="forbid")

        max_resolution: int | None = Field(
            None, ge=64, le=4096, description=f"Longest side in pixels (default {default})."
        )
        max_bytes: int | None = Field(
            None, ge=4096, le=8 * 1024 * 1024, description="Downscale until the PNG is at most this big."
        )
        as_link: bool = Field(False, description="Answer with a resource link instead of the image.")

    def invoke(args: Any, ctx: ToolContext) -> ImageResult | LinkResult:
        side = args.max_resolution or max_resolution
        fn = lambda: capture(side)  # noqa: E731
        png = ctx.on_main(CallOnMain(fn=fn, label="screenshot", agent=ctx.role, trace_id=ctx.trace_id))
        data, size = fit_png(png, side)
        if args.max_bytes is not None:
            data, size = fit_bytes(data, size, args.max_bytes)
        if args.as_link and shots is not None:
            uri = shots.put(data)
            return LinkResult(uri, "screenshot", "image/png", len(data), f"{size[0]}x{size[1]}")
        return ImageResult(data, size)

    return Tool("screenshot", SCREENSHOT, ScreenshotArgs, invoke, returns="image")
