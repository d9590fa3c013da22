"""Player-facing switches of the AI session: F6 cycles the director's mode (an LLM mode is health-probed
first, off the main thread), and the console's ``/backend <role> <name>`` moves a role to another backend
(probed first, switched only if it answers)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from coreai.commands import CallOnMain
from coreai.llm.registry import BACKENDS

if TYPE_CHECKING:
    from game.ai.port import SessionParts


def cycle_director(session: SessionParts) -> str:
    """F6: the next mode. The switch to an LLM mode happens when its probe answers; a failed probe skips that
    backend with a notice. Returns the mode now in force."""
    modes = session.director.modes()
    target = modes[(modes.index(session.director.mode) + 1) % len(modes)]
    if BACKENDS.needs_probe(target):
        session.notify("info", f"director: checking {target}...")
        threading.Thread(target=_probe_then_switch, args=(session, target), daemon=True).start()
        return session.director.mode
    set_director_mode(session, target)
    return target


def set_director_mode(session: SessionParts, mode: str) -> None:
    """Main thread only."""
    session.director.set_mode(mode, session.handle.world)
    session.notify("info", f"director: {mode}")


def _probe_then_switch(session: SessionParts, target: str) -> None:
    report = BACKENDS.probe(target, session.settings.llm)
    mode = target
    if not report.ok:
        modes = session.director.modes()
        mode = modes[(modes.index(target) + 1) % len(modes)]
        session.notify("warn", f"director: {target} failed its health probe ({report.detail}); skipped")
    session.runtime.mainloop.post(
        CallOnMain(fn=lambda: set_director_mode(session, mode), label="director-mode")
    )


def switch_backend(session: SessionParts, role: str, name: str) -> str:
    """Console ``/backend <role> <name>``: probe first, switch only if it answers."""
    if name not in session.backends.registry:
        why = session.backends.reasons.get(name, "not configured")
        return f"backend '{name}' is not available ({why})"
    if BACKENDS.needs_probe(name):
        report = BACKENDS.probe(name, session.settings.llm)
        if not report.ok:
            return f"{name} failed its health probe: {report.detail}; {role} stays on " + (
                session.runtime.router.backend_for(role)
            )
    session.runtime.router.set_backend(role, name)
    return f"{role} now uses {name}"
