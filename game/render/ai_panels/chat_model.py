"""The chat panel's state, without drawing: the role picker, one transcript and one turn per role, and the
input line. Main thread only; the turns themselves run on the agents' worker threads (``game.ai.chat``).

Roles that keep chat history (Chat, Merchant) show their stored turns when first picked; every role's
replies in this session stay in its transcript. The Programmer's turns go to its own queue (it writes and
runs Lua); the others go to the agents' task queue. Esc / Stop cancels the role's turn through that queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from game.ai.chat import ROLES, ChatTurn
from game.talk.start import start_turn
from game.talk.turn import TalkTurn

if TYPE_CHECKING:
    from game.ai.session import AiSession

Speaker = Literal["you", "agent", "info", "error"]
MAX_INPUT = 400
SEED_HISTORY = 6  # stored entries shown when a role is first picked


@dataclass
class Line:
    speaker: Speaker
    text: str


class ChatModel:
    def __init__(self, session: AiSession) -> None:
        self.session = session
        self.role = ROLES[0]
        self.input = ""
        self.transcripts: dict[str, list[Line]] = {}
        self.turns: dict[str, ChatTurn | TalkTurn] = {}
        self.version = 0  # bumps on every visible change (the panel re-lays-out its text then)

    # ------------------------------------------------------------------ roles
    def transcript(self, role: str | None = None) -> list[Line]:
        role = role or self.role
        if role not in self.transcripts:
            self.transcripts[role] = self._stored(role)
        return self.transcripts[role]

    def _stored(self, role: str) -> list[Line]:
        try:
            _, entries = self.session.runtime.memory.history(role)
        except Exception:  # unreadable memory is the memory store's problem; the chat starts empty
            entries = []
        lines = [Line("you" if e.role == "user" else "agent", e.content) for e in entries[-SEED_HISTORY:]]
        return lines

    def pick(self, role: str) -> None:
        if role in ROLES and role != self.role:
            self.role = role
            self.version += 1

    def cycle(self, step: int = 1) -> None:
        self.pick(ROLES[(ROLES.index(self.role) + step) % len(ROLES)])

    # ------------------------------------------------------------------ typing
    def type(self, text: str) -> None:
        clean = "".join(ch for ch in text if ch.isprintable())
        if clean:
            self.input = (self.input + clean)[:MAX_INPUT]
            self.version += 1

    def backspace(self) -> None:
        if self.input:
            self.input = self.input[:-1]
            self.version += 1

    # ------------------------------------------------------------------ turns
    @property
    def turn(self) -> ChatTurn | TalkTurn | None:
        return self.turns.get(self.role)

    @property
    def busy(self) -> bool:
        turn = self.turn
        return turn is not None and turn.busy

    def submit(self) -> bool:
        """Send the input line to the current role; False if it is empty or a reply is still coming."""
        text = self.input.strip()
        if not text or self.busy:
            return False
        self.input = ""
        self.transcript().append(Line("you", text))
        self.turns[self.role] = start_turn(self.session, self.role, text)
        self.version += 1
        return True

    def stop(self) -> bool:
        """Esc / Stop: cancel the current role's reply."""
        turn = self.turn
        if turn is None or not turn.stop():
            return False
        self.version += 1
        return True

    def poll(self) -> None:
        """Once per frame: move finished turns into their transcripts."""
        for role, turn in list(self.turns.items()):
            if turn.busy:
                continue
            del self.turns[role]
            text = turn.text().strip()
            lines = self.transcript(role)
            if turn.state == "done":
                lines.append(Line("agent", text or "(no answer)"))
                if isinstance(turn, TalkTurn) and turn.note:
                    lines.append(Line("info", turn.note))  # the talk guard replaced the model's reply
            elif turn.state == "stopped":
                if text:
                    lines.append(Line("agent", text))
                lines.append(Line("info", "stopped"))
            else:
                lines.append(Line("error", f"no answer: {_player_words(turn.error)}"))
            self.version += 1

    def live_text(self) -> str:
        """The reply streaming in right now for the current role ("" when none)."""
        turn = self.turn
        return turn.text() if turn is not None and turn.busy else ""

    def status(self) -> str:
        turn = self.turn
        if turn is not None and turn.busy:
            return f"{self.role} is {'typing' if turn.state == 'streaming' else 'thinking'}"
        lines = self.transcript()
        if lines and lines[-1].speaker == "info":
            return lines[-1].text.split(":", 1)[0][:40]  # "stopped", "checked answer" (the note is above)
        backend = self.session.runtime.router.backend_for(self.role)
        return f"{self.role} on {backend}"


def _player_words(error: str) -> str:
    """An error as a player reads it: the message without the developer tail (codes, trace ids)."""
    text = error.split(" [trace ", 1)[0]
    for prefix in ("llm[", "task "):
        if text.startswith(prefix) and "] " in text:
            text = text.split("] ", 1)[1]
    return text[:140] or "the agent did not answer"
