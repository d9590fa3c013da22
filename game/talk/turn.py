"""``TalkTurn``: one grounded reply, streamed through the stream watch and checked by the talk guard.

It has ``ChatTurn``'s face (state, busy, text, stop, wait, result...), so the chat panel, ``python -m game
ask``, the game-over analysis and the talk evaluation all run it the same way. The model's phrasing streams
as it comes, cut at its first repetition, stop string or raw output (the model is stopped there). When the
reply is over (or its deadline passes) the guard checks it; a failing reply is replaced by the grounded
template and ``note`` says so in small print. With no model (``queue=None``) the template answers at once.

With ``template_first`` (the default, ``[talk] show_template_first``) the grounded answer shows at once and
the model's phrasing, watched the same way but never shown while it streams, replaces it only when it
passes the guard: the player never waits, and never reads nonsense.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from coreai.events import EventBus
from coreai.requests import AgentResult
from coreai.settings import TalkDecoding
from coreai.taskqueue import QueuedOrchestrator
from game.ai.chat import ChatTurn, TurnState
from game.talk.grounding import Grounding
from game.talk.guard import Limits, Verdict, check
from game.talk.prompt import talk_request
from game.talk.stats import STATS, TalkStats
from game.talk.watch import StreamWatch

REASON_WORDS = {
    "raw": "showed raw tool output",
    "repeat": "repeated itself",
    "facts": "missed the facts",
    "shelf": "got a price or number wrong",
    "invented": "named something the game does not have",
    "voice": "spoke as if it were you",
    "claims": "said what the game's data does not",
    "length": "did not fit",
    "failed": "failed",
    "late": "was too slow",
}


def note_for(verdict: Verdict) -> str:
    """The small print under a replaced reply: what the guard found, and a false claim's own reason."""
    words = " and ".join(REASON_WORDS.get(r, r) for r in verdict.reasons)
    why = next((d for d in verdict.detail.split("; ") if d.startswith(("false:", "unstated:"))), "")
    said = f" ({why.split(': ', 1)[1]})" if why else ""
    return f"checked answer: the model's reply {words}{said}; this one comes from the game's data"


class TalkTurn:
    def __init__(
        self,
        queue: QueuedOrchestrator | None,
        events: EventBus | None,
        grounding: Grounding,
        decoding: TalkDecoding,
        *,
        deadline_s: float = 8.0,
        on_piece: Callable[[str], None] | None = None,
        scope: str | None = None,
        priority: int = 10,
        template_first: bool = False,
        on_final: Callable[[str], None] | None = None,
        stats: TalkStats = STATS,
    ) -> None:
        self.grounding = grounding
        self.role = grounding.role
        self.decoding = decoding
        self.deadline_s = deadline_s
        self.on_piece = on_piece
        self.on_final = on_final  # e.g. store the turn in the role's chat history (what the player saw)
        self.stats = stats
        self.started = time.perf_counter()
        self.first_piece_s: float | None = None
        self.ended_s: float | None = None
        self.error = ""
        self.note = ""
        self.verdict: Verdict | None = None
        self.replaced = False
        self.model_text = ""  # what the model said (cut), before the guard
        self._lock = threading.Lock()
        self._watch = StreamWatch(decoding)
        self._final: str | None = None
        self._state: TurnState = "waiting"
        self.template_first = template_first
        self.inner: ChatTurn | None = None
        if template_first and queue is not None and events is not None:
            self._state = "streaming"
            self.first_piece_s = time.perf_counter() - self.started
            if on_piece is not None:
                on_piece(grounding.template)
        if queue is None or events is None:
            self.trace_id = "template"
            self._settle(grounding.template, model=False)
            return
        request = talk_request(
            grounding, decoding, scope=scope or f"chat:{grounding.role}", priority=priority
        )
        self.trace_id = request.trace_id or ""
        self.inner = ChatTurn(queue, events, request, on_piece=self._piece)
        self.inner.handle.add_done_callback(lambda _h: self._inner_over())

    # -- worker threads -----------------------------------------------------------------------------------
    def _piece(self, text: str) -> None:
        with self._lock:
            if self._final is not None:
                return
            new = self._watch.feed(text)
            if self.template_first:
                new = ""  # the grounded answer is on screen; the model's phrasing waits for the guard
            if new and self.first_piece_s is None:
                self.first_piece_s = time.perf_counter() - self.started
            if new:
                self._state = "streaming"
            cut = self._watch.cut
        if new and self.on_piece is not None:
            self.on_piece(new)
        if cut and self.inner is not None:
            self.inner.stop()  # the model stops between two tokens; what it said so far is the reply
            self._settle(self._watch.finish())

    def _inner_over(self) -> None:
        inner = self.inner
        if inner is None:
            return
        state = inner.state
        if state == "done":
            content = inner.result.content if inner.result is not None else ""
            self._settle(self._watch.finish(content))
        elif state == "failed":
            self._settle(None, failed=inner.error or "the model failed")
        # stopped: by the watch (settled already) or by the player (stop())

    def _settle(self, text: str | None, *, model: bool = True, failed: str = "", late: bool = False) -> None:
        g = self.grounding
        with self._lock:
            if self._final is not None or self._state == "stopped":
                return
            self.model_text = text or ""
            if failed or late:
                reasons = ("failed",) if failed else ("late",)
                verdict = Verdict(False, reasons, failed)
            else:
                verdict = check(text or "", g, Limits(self.decoding.max_chars, self.decoding.max_sentences))
                cut = self._watch.cut
                if not verdict.ok and cut in ("repeat", "raw") and cut not in verdict.reasons:
                    verdict = Verdict(
                        False, (cut, *verdict.reasons), verdict.detail
                    )  # what the watch stopped
            self.verdict = verdict
            self.replaced = not verdict.ok
            self.error = failed
            self._final = (text or "").strip() if verdict.ok else g.template
            if self.replaced and model:
                self.note = note_for(verdict)
            self._state = "done"
            self.ended_s = time.perf_counter() - self.started
            if self.first_piece_s is None:
                self.first_piece_s = self.ended_s
        if model:
            self.stats.record(self.role, self.replaced, verdict.reasons, self.trace_id, verdict.detail)
        if self.on_final is not None:
            try:
                self.on_final(self._final)
            except Exception as exc:  # a history that cannot be written must not lose the reply
                self.stats.log.warning("talk: storing the {} turn failed: {}", self.role, exc)

    def _check_deadline(self) -> None:
        if (
            self._final is None
            and self._state != "stopped"
            and time.perf_counter() - self.started > self.deadline_s
        ):
            if self.inner is not None:
                self.inner.stop()
            with self._lock:
                shown = self._watch.finish(self._watch.visible)
            passes = bool(shown) and check(shown, self.grounding, Limits(self.decoding.max_chars, 9)).ok
            self._settle(shown, late=not passes)

    # -- any thread ---------------------------------------------------------------------------------------
    @property
    def state(self) -> TurnState:
        self._check_deadline()
        with self._lock:
            return self._state

    @property
    def busy(self) -> bool:
        return self.state in ("waiting", "streaming")

    @property
    def result(self) -> AgentResult | None:
        return self.inner.result if self.inner is not None else None

    def text(self) -> str:
        self._check_deadline()
        with self._lock:
            if self._final is not None:
                return self._final
            return self.grounding.template if self.template_first else self._watch.visible

    def streamed(self) -> str:
        """What was shown while the reply streamed (before any replacement)."""
        with self._lock:
            return self.grounding.template if self.template_first else self._watch.visible

    def stop(self) -> bool:
        with self._lock:
            if self._final is not None or self._state == "stopped":
                return False
            self._state = "stopped"
            self.ended_s = time.perf_counter() - self.started
        if self.inner is not None:
            self.inner.stop()
        return True

    def wait(self, timeout_s: float) -> bool:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if not self.busy:
                return True
            time.sleep(0.01)
        return not self.busy

    def tools_called(self) -> list[str]:
        return []
