"""The in-game AI and mod UI: the F10 live director panel, the F7 mods panel, the backtick console, the F9
Programmer task, F6 director cycling, the HUD's agent-activity line, and toasts for the announcer and every
other session notice (a notice of kind "dev" goes to the log and the console only: players see player words).

``install(app, session)`` (called by ``game.ai.wiring.attach``) registers all of it on the game through its
ports (``game.ports.PluginHost``) and returns the ``AiPanels`` it built. Everything runs on the main thread;
answers from agent worker threads are handed over through the main-loop queue's UI lane (``post_ui``), which
the app drains every frame on every screen, paused or not; session notices come the same way
(``session.on_notice``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from arcade.types import Color
from loguru import logger

from game import hotkeys as hk
from game.director.director import STATIC
from game.render import palette
from game.render.ai_panels.chat_hooks import install_chat
from game.render.ai_panels.chat_panel import ChatPanel
from game.render.ai_panels.console import ConsoleOverlay
from game.render.ai_panels.console_model import ConsoleModel
from game.render.ai_panels.director_panel import DirectorPanelOverlay
from game.render.ai_panels.director_view import DirectorPanel, panel_view
from game.render.ai_panels.mods_panel import ModsPanel
from game.render.ai_panels.programmer import ProgrammerLauncher

if TYPE_CHECKING:
    from game.ai.session import AiSession
    from game.ports import PluginHost

__all__ = ["AiPanels", "install"]

log = logger.bind(feature="ai-panels", trace_id=None)

NOTICE_COLOURS: dict[str, Color] = {"info": palette.TEXT, "warn": palette.WARN, "good": palette.GOOD}
NOTICE_SECONDS: dict[str, float] = {"info": 3.0, "warn": 5.0, "good": 4.0}


@dataclass
class AiPanels:
    """What ``install`` built (the game keeps it alive through the hooks; tests and tools read it)."""

    app: PluginHost
    session: AiSession
    director: DirectorPanelOverlay
    mods: ModsPanel
    console: ConsoleOverlay
    programmer: ProgrammerLauncher
    chat: ChatPanel | None = None  # T / Enter (with the shop step and the game-over analysis)

    # ------------------------------------------------------------------ per frame
    def pump(self) -> None:
        """Run the UI lane's hand-offs: worker answers and session notices. Main thread, every frame."""
        self.session.runtime.mainloop.drain_ui()

    def chrome_hook(self, dt: float) -> None:
        self.pump()

    def show_notice(self, kind: str, text: str) -> None:
        """A session notice as a toast and a console line ("dev": the log and the console only)."""
        if kind == "dev":  # developer detail (load times, routing): the log and the console, not a toast
            log.info("{}", text)
            self.console.model.append(text, "info")
            return
        shown = (
            f"\u201c{text}\u201d" if kind == "good" and text == self.session.director.last_announcer else text
        )
        self.app.show_toast(shown, NOTICE_SECONDS.get(kind, 3.0), NOTICE_COLOURS.get(kind, palette.TEXT))
        self.console.model.append(f"[{kind}] {text}", "warn" if kind == "warn" else "info")

    # ------------------------------------------------------------------ hotkeys and HUD
    def cycle_director(self) -> str:
        """F6: static -> rules -> each chat backend; the session's notice becomes the toast at once."""
        mode = self.session.cycle_director()
        self.pump()
        return mode

    def activity_line(self) -> str:
        """The HUD's agent line: the runtime's activity plus the director mode (and a dot while it thinks)."""
        director = self.session.director
        world = self.app.world
        thinking = world is not None and director.pending
        line = self.session.runtime.activity().line()
        return f"{line} | director: {director.mode}{' (thinking)' if thinking else ''}"

    def second_winds(self) -> int | None:
        """The HUD's second winds left: the director's rescue charges, None under static (it gives none)."""
        director = self.session.director
        return None if director.mode == STATIC else director.rescue.charges

    def director_data(self) -> DirectorPanel | None:
        world = self.app.world
        return None if world is None else panel_view(self.session.director, world)

    def programmer_task(self) -> None:
        """F9: start the Programmer and open the console, where its progress shows (the game holds there)."""
        self.programmer.on_hotkey()
        if not self.console.visible:
            self.console.toggle()

    def open_console(self) -> None:
        self.app.input.clear()  # keys held when the console opens must not keep the ship moving


def install(app: PluginHost, session: AiSession) -> AiPanels:
    """Register the AI panels, hotkeys, toasts and HUD line on ``app`` for ``session``."""
    programmer = ProgrammerLauncher(session, app.show_toast)
    model = ConsoleModel(session, programmer.start)
    programmer.console = model
    panels = AiPanels(
        app=app,
        session=session,
        director=DirectorPanelOverlay(lambda: panels.director_data()),
        mods=ModsPanel(session.mods, app.show_toast),
        console=ConsoleOverlay(model),
        programmer=programmer,
    )
    panels.console.on_open = panels.open_console
    app.set_pause_on_overlay(session.settings.game.pause_on_overlay)
    app.governor.set(session.settings.game.graphics_quality)
    app.add_panel(panels.director, hk.DIRECTOR_PANEL, "Director panel (live)")
    app.add_panel(panels.mods)
    app.add_panel(panels.console)
    panels.chat = install_chat(app, session)  # last: on top, first to see keys
    reg = app.hotkeys
    reg.register(hk.MODS_PANEL, "Mods panel", lambda: _toggle_mods(panels))
    reg.register(hk.CONSOLE, "Console (Lua, /ask, /help)", panels.console.toggle)
    reg.register(hk.PROGRAMMER_TASK, "Programmer task (opens the console, pauses)", panels.programmer_task)
    reg.register(hk.DIRECTOR_BACKEND, "Cycle director: static / rules / backends", panels.cycle_director)
    session.on_notice = panels.show_notice
    app.on_chrome(panels.chrome_hook)  # every screen, paused or not
    app.set_activity_source(panels.activity_line)
    app.set_second_winds_source(panels.second_winds)
    return panels


def _toggle_mods(panels: AiPanels) -> None:
    panels.mods.visible = not panels.mods.visible
    if panels.mods.visible:
        panels.mods.refresh(force=True)
