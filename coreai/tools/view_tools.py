"""Tools that let a caller read and look: ``read_skill`` (the shipped reference docs) and ``screenshot``
(the current frame as a PNG, captured on the main thread, downscaled on the caller's thread)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from coreai.commands import CallOnMain
from coreai.tools.base import ImageResult, Tool, ToolContext

READ_SKILL = """\
Return the full text of a reference document the game ships (markdown), the same one the in-game agents
read. Read "lua_modding" before writing any Lua. Names forgive case and spaces ("Lua Modding" works).
Example: {"name": "lua_modding"}
"""

SCREENSHOT = """\
Capture the current game frame as a PNG image, downscaled so its longest side is at most max_resolution.
Use it to see the result of what you did (spawns, mods, UI). Fails with the reason when the game has no
window (headless run) or the capture failed.
Example: {"max_resolution": 768}
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


def screenshot_tool(capture: Callable[[int], bytes], max_resolution: int = 1024) -> Tool:
    """``capture(max_resolution) -> PNG bytes`` runs on the main thread (it reads the framebuffer)."""
    from coreai.mcp.images import fit_png

    default = max_resolution

    class ScreenshotArgs(BaseModel):
        model_config = ConfigDict(extra="forbid")

        max_resolution: int | None = Field(
            None, ge=64, le=4096, description=f"Longest side in pixels (default {default})."
        )

    def invoke(args: Any, ctx: ToolContext) -> ImageResult:
        side = args.max_resolution or max_resolution
        fn = lambda: capture(side)  # noqa: E731
        png = ctx.on_main(CallOnMain(fn=fn, label="screenshot", agent=ctx.role, trace_id=ctx.trace_id))
        data, size = fit_png(png, side)
        return ImageResult(data, size)

    return Tool("screenshot", SCREENSHOT, ScreenshotArgs, invoke, returns="image")
