"""F9 (and ``/prog <task>``): hand a task to the Programmer role, which writes Lua, runs it in the sandbox and
repairs it from the error. Progress shows as toasts (the session's notices: "attempt 1 failed ...;
repairing", "script ran on attempt 2"); the final answer is appended to the console and toasted."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from loguru import logger

from coreai.errors import CoreAIError
from coreai.lua import PROGRAMMER_DEMO_TASK
from game.render import palette
from game.render.ai_panels.console_model import ConsoleModel, LineKind

if TYPE_CHECKING:
    from arcade.types import Color

    from game.ai.session import AiSession

log = logger.bind(feature="game", trace_id="programmer")
Toast = Callable[[str, float, "Color"], None]


class ProgrammerLauncher:
    def __init__(self, session: AiSession, toast: Toast) -> None:
        self.session = session
        self.toast = toast
        self.console: ConsoleModel | None = None  # set once the console exists
        self.started = 0
        self.finished = 0

    def _done_later(self, text: str) -> None:
        """The Programmer's answer, from its worker thread: shown on the main thread (the UI lane)."""
        self.session.runtime.mainloop.post_ui(lambda: self._done(text), label="programmer-done")

    def on_hotkey(self) -> None:
        """F9: the task typed after ``/prog `` in the console, else the demo task."""
        task = self.console.take_prog_task() if self.console is not None else None
        self.start(task or PROGRAMMER_DEMO_TASK)

    def start(self, task: str) -> None:
        short = task if len(task) <= 70 else task[:67] + "..."
        try:
            self.session.programmer_task(task, on_done=self._done_later)
        except CoreAIError as exc:
            self._say(f"Programmer could not start: {exc}", "error", palette.WARN)
            return
        self.started += 1
        self._say(f"Programmer: writing Lua for '{short}'", "info", palette.XP)

    def _done(self, text: str) -> None:
        self.finished += 1
        ok = ": ok after" in text or " is on (F7" in text
        self._say(text, "good" if ok else "warn", palette.GOOD if ok else palette.WARN)

    def _say(self, text: str, kind: LineKind, color: Color) -> None:
        self.toast(text.splitlines()[0] if text else text, 4.0, color)
        if self.console is not None:
            self.console.append(text, kind)
        log.info("{}", text)
