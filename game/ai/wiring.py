"""Hook an ``AiSession`` into the windowed game: world factory, per-tick and per-frame calls, pause, run end,
the MCP screenshot service, and the AI panels and hotkeys (``game.render.ai_panels.install``)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from loguru import logger

from game.ai.session import AiSession

if TYPE_CHECKING:
    from game.ports import Chrome, PluginHost

log = logger.bind(feature="game", trace_id="wiring")


def frame_png(app: Chrome, max_resolution: int) -> bytes:
    """The current frame as PNG, longest side at most ``max_resolution``. Main thread only."""
    import arcade

    window = app.window
    window.switch_to()
    # draw the current view straight into the framebuffer and read it back: ``dispatch_event("on_draw")``
    # is only queued when called from a clock callback (this runs inside a frame hook), which read back black
    view = window.current_view
    if view is not None:
        view.on_draw()
    else:
        window.on_draw()
    image = arcade.get_image().convert("RGB")
    scale = min(1.0, max_resolution / max(image.size))
    if scale < 1.0:
        image = image.resize((max(1, int(image.width * scale)), max(1, int(image.height * scale))))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def attach(app: PluginHost, session: AiSession) -> None:
    app.set_world_factory(session.world_factory)
    app.on_run_start(session.on_run_start)
    app.on_tick(session.on_tick)
    app.on_frame(session.on_frame)
    app.on_pause(session.set_paused)
    app.on_run_recorded(session.run_over)
    session.screenshot = lambda res: frame_png(app, res)
    from game.play.wiring import use_window

    use_window(session, app)  # an MCP agent works the window's screens and holds keys in its input
    session.difficulty = app.prefs.settings.difficulty  # the player's preset drives the rules director
    app.on_prefs_changed(lambda prefs: setattr(session, "difficulty", prefs.difficulty))
    try:
        from game.render.ai_panels import install
    except ImportError as exc:  # the panels are optional: the AI runs without them
        log.warning("AI panels unavailable: {}", exc)
        return
    install(app, session)
