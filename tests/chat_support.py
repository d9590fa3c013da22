"""A slow scripted backend for the chat tests: it streams a reply word by word with a pause between words
and stops between two words when the request's cancel event is set, like the real backends do. It also
records how far it got, so a test can tell that a Stop reached the backend."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.types import LlmChunk, LlmRequest, LlmResult


class SlowStreamer:
    def __init__(self, reply: str, *, pause_s: float = 0.08, name: str = "slow", first_token_s: float = 0.0):
        self.name = name
        self.words = reply.split(" ")
        self.pause_s = pause_s
        self.first_token_s = first_token_s
        self.sent = 0  # words sent in the last stream
        self.cancelled = threading.Event()
        self.requests: list[LlmRequest] = []

    def complete(self, request: LlmRequest) -> LlmResult:
        return LlmResult(content="".join(c.content for c in self.stream(request)), backend=self.name)

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        self.requests.append(request)
        self.sent = 0
        if request.cancel.wait(self.first_token_s):
            self.cancelled.set()
            raise LlmError(LlmErrorCode.CANCELLED, "cancelled", backend=self.name)
        for i, word in enumerate(self.words):
            if request.cancel.is_set():
                self.cancelled.set()
                raise LlmError(LlmErrorCode.CANCELLED, "stopped between tokens", backend=self.name)
            self.sent += 1
            yield LlmChunk(content=word if i == 0 else " " + word)
            time.sleep(self.pause_s)
        yield LlmChunk(finish_reason="stop")
