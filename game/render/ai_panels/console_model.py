"""The backtick console's state and commands, apart from drawing: the input line, its history, the
scrollback, and what a submitted line does.

- Plain text is Lua, run in the ``console`` sandbox (``session.mods.execute``); its printed output, returned
  values and errors (with the line) go to the scrollback.
- ``/ask <Role> <text>`` queues a request to an agent; the answer is appended when it arrives.
- ``/backend <role> <name>`` switches a role's backend (probed first, on a worker thread).
- ``/prog <task>`` starts a Programmer task; ``/routes``, ``/clear``, ``/help``.

Everything here runs on the main thread; answers from worker threads come back through the main-loop
queue's UI lane (``post_ui``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from loguru import logger

from coreai.errors import CoreAIError
from coreai.llm.registry import BACKENDS
from coreai.lua import ExecResult
from coreai.settings import ALL_FEATURES, BUILTIN_ROLES

if TYPE_CHECKING:
    from game.ai.session import AiSession

log = logger.bind(feature="game", trace_id="console")

LineKind = Literal["input", "output", "value", "error", "agent", "info", "good", "warn"]
MAX_LINES = 500
MAX_HISTORY = 100
MAX_INPUT = 400
PROG_PREFIX = "/prog "

HELP = (
    "Type Lua and press Enter: it runs in the console sandbox (Mod API v1), e.g.  return 1+1",
    "/ask <Role> <text>      ask an agent (Chat, Creator, Programmer, Analyzer, Merchant)",
    "/backend <role> <name>  switch a role's backend (" + ", ".join(BACKENDS.names()) + "); probed first",
    "/prog <task>            have the Programmer write and run Lua (F9 runs the demo task)",
    "/routes                 which backend each role uses",
    "/logs <mod> [n]         a mod's last n log lines (print, warn, error, faults)",
    "/log level <LEVEL>      console log level now (DEBUG, INFO, WARNING...)",
    "/log features <a,b|all> which feature tags log (" + ", ".join(ALL_FEATURES) + ")",
    "/clear                  clear this scrollback",
    "Up/Down: input history   PgUp/PgDn: scroll   Esc or `: close",
)


@dataclass(frozen=True)
class ConsoleLine:
    text: str
    kind: LineKind


def exec_lines(result: ExecResult) -> list[ConsoleLine]:
    """A Lua result as scrollback lines: output first, then the values or the error (with its line)."""
    lines = [ConsoleLine(out, "output") for out in result.output]
    if result.ok:
        if result.values:
            lines.append(ConsoleLine("=> " + ", ".join(lua_repr(v) for v in result.values), "value"))
        elif not lines:
            lines.append(ConsoleLine("ok", "value"))
    else:
        where = f", line {result.line}" if result.line is not None else ""
        lines.append(ConsoleLine(f"error ({result.error_kind}{where}): {result.error}", "error"))
    return lines


def lua_repr(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nil"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, str):
        return repr(value)
    return str(value)


class ConsoleModel:
    def __init__(
        self,
        session: AiSession,
        start_programmer: Callable[[str], None],
    ) -> None:
        self.session = session
        self.start_programmer = start_programmer
        self.lines: deque[ConsoleLine] = deque(maxlen=MAX_LINES)
        self.history: list[str] = []
        self.input = ""
        self.scroll = 0  # lines scrolled up from the newest
        self.version = 0  # changes whenever what the console shows changes
        self._hist_pos: int | None = None
        self._draft = ""
        self.append("Console: Lua runs in a sandbox; /help lists commands.", "info")

    # ------------------------------------------------------------------ scrollback
    def append(self, text: str, kind: LineKind = "output") -> None:
        """Add lines (main thread). Multi-line text becomes several lines."""
        for part in str(text).splitlines() or [""]:
            self.lines.append(ConsoleLine(part, kind))
        self.scroll = 0
        self.version += 1

    def append_later(self, text: str, kind: LineKind = "agent") -> None:
        """``append`` from any thread: runs on the main thread through the main-loop queue's UI lane."""
        self.session.runtime.mainloop.post_ui(lambda: self.append(text, kind), label="console-line")

    def texts(self) -> list[str]:
        return [line.text for line in self.lines]

    def scroll_by(self, n: int, visible_rows: int) -> None:
        top = max(0, len(self.lines) - visible_rows)
        self.scroll = max(0, min(top, self.scroll + n))
        self.version += 1

    # ------------------------------------------------------------------ input line
    def type(self, text: str) -> None:
        clean = "".join(ch for ch in text if ch.isprintable() and ch not in "`~")
        if clean:
            self.input = (self.input + clean)[:MAX_INPUT]
            self.version += 1

    def backspace(self) -> None:
        if self.input:
            self.input = self.input[:-1]
            self.version += 1

    def history_prev(self) -> None:
        if not self.history:
            return
        if self._hist_pos is None:
            self._draft = self.input
            self._hist_pos = len(self.history) - 1
        else:
            self._hist_pos = max(0, self._hist_pos - 1)
        self.input = self.history[self._hist_pos]
        self.version += 1

    def history_next(self) -> None:
        if self._hist_pos is None:
            return
        self._hist_pos += 1
        if self._hist_pos >= len(self.history):
            self._hist_pos = None
            self.input = self._draft
        else:
            self.input = self.history[self._hist_pos]
        self.version += 1

    def take_prog_task(self) -> str | None:
        """The task typed after ``/prog `` in the input line (consumed), or None (F9 uses this)."""
        if not self.input.startswith(PROG_PREFIX) or not self.input[len(PROG_PREFIX) :].strip():
            return None
        line = self.input
        self._remember(line)
        self.input = ""
        self.append("> " + line, "input")
        return line[len(PROG_PREFIX) :].strip()

    def submit(self) -> None:
        line = self.input.strip()
        self.input = ""
        self._hist_pos = None
        self.version += 1
        if not line:
            return
        self._remember(line)
        self.append("> " + line, "input")
        self.run(line)

    def _remember(self, line: str) -> None:
        if not self.history or self.history[-1] != line:
            self.history.append(line)
            del self.history[:-MAX_HISTORY]
        self._hist_pos = None

    # ------------------------------------------------------------------ commands
    def run(self, line: str) -> None:
        """Run one submitted line (Lua or a /command); never raises."""
        try:
            if line.startswith("/"):
                self._command(line)
            else:
                for out in exec_lines(self.session.mods.execute(line, mod="console")):
                    self.append(out.text, out.kind)
        except (CoreAIError, ValueError) as exc:  # ValueError covers a request that failed validation
            self.append(f"error: {exc}", "error")
        except Exception as exc:  # the console must survive anything a line can trigger
            log.opt(exception=exc).error("console line failed: {}", exc)
            self.append(f"internal error: {type(exc).__name__}: {exc}", "error")

    def _command(self, line: str) -> None:
        name, _, rest = line[1:].partition(" ")
        rest = rest.strip()
        name = name.lower()
        if name in ("help", "?"):
            for h in HELP:
                self.append(h, "info")
        elif name == "clear":
            self.lines.clear()
            self.scroll = 0
            self.version += 1
        elif name == "ask":
            self._ask(rest)
        elif name == "backend":
            self._backend(rest)
        elif name == "prog":
            if not rest:
                self.append("usage: /prog <task>   (F9 runs the demo task)", "warn")
            else:
                self.start_programmer(rest)
        elif name == "logs":
            self._mod_logs(rest)
        elif name == "log":
            self._log_settings(rest)
        elif name == "routes":
            routes = self.session.runtime.router.routes()
            self.append("  ".join(f"{r}={b}" for r, b in sorted(routes.items())) or "(no routes)", "info")
        else:
            self.append(f"unknown command /{name}; /help lists them", "warn")

    def _mod_logs(self, rest: str) -> None:
        parts = rest.split()
        if not parts or (len(parts) > 1 and not parts[1].isdigit()):
            self.append("usage: /logs <mod> [n]", "warn")
            return
        limit = int(parts[1]) if len(parts) > 1 else 10
        entries = self.session.mods.logs(parts[0], limit=limit)
        for e in entries:
            self.append(str(e), "error" if e.level in ("error", "fault") else "output")
        if not entries:
            self.append(f"no log lines for '{parts[0]}'", "info")

    def _log_settings(self, rest: str) -> None:
        from coreai import logging as corelog

        what, _, value = rest.partition(" ")
        value = value.strip()
        if what == "level" and value:
            corelog.set_level(value.upper())  # type: ignore[arg-type]
            self.append(f"log level is now {value.upper()}", "info")
        elif what == "features" and value:
            features = None if value == "all" else [f.strip() for f in value.split(",") if f.strip()]
            corelog.set_features(features)
            self.append(f"logging features: {value}", "info")
        else:
            self.append("usage: /log level <LEVEL> | /log features <a,b|all>", "warn")

    def roles(self) -> list[str]:
        return sorted({*BUILTIN_ROLES, *self.session.runtime.router.routes()})

    def _role(self, name: str) -> str | None:
        return next((r for r in self.roles() if r.lower() == name.lower()), None)

    def _ask(self, rest: str) -> None:
        role_name, _, text = rest.partition(" ")
        text = text.strip()
        if not role_name or not text:
            self.append("usage: /ask <Role> <text>", "warn")
            return
        role = self._role(role_name)
        if role is None:
            self.append(f"unknown role '{role_name}'; roles: {', '.join(self.roles())}", "error")
            return
        self.session.ask(role, text, on_done=lambda answer: self.append_later(answer, "agent"))
        backend = self.session.runtime.router.backend_for(role)
        self.append(f"asked {role} (backend {backend}); the answer appears here", "info")

    def _backend(self, rest: str) -> None:
        parts = rest.split()
        if len(parts) != 2:
            self.append("usage: /backend <role> <name>", "warn")
            return
        role = self._role(parts[0])
        if role is None:
            self.append(f"unknown role '{parts[0]}'; roles: {', '.join(self.roles())}", "error")
            return
        name = parts[1]
        self.append(f"probing {name} for {role}...", "info")

        def work() -> None:  # a probe may touch the network (127.0.0.1): keep it off the main thread
            try:
                answer = self.session.switch_backend(role, name)
            except CoreAIError as exc:
                answer = f"switch failed: {exc}"
            except Exception as exc:  # reported in the console, never lost on the worker
                log.opt(exception=exc).error("backend switch failed: {}", exc)
                answer = f"switch failed: {type(exc).__name__}: {exc}"
            self.append_later(answer, "good" if answer.endswith(f"now uses {name}") else "warn")

        threading.Thread(target=work, name="console-backend-switch", daemon=True).start()
