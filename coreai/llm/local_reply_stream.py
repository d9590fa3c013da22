"""Streaming the words of a local model's ``{"reply": "..."}`` while it is still being generated.

A local request that offers tools (``tool_choice="auto"``) is answered under a grammar that lets the model
either call a tool or reply in words as ``{"reply": "<text>"}`` (``coreai.llm.local_prompt``). Which one
it chose is known from the reply's first characters: the grammar has no whitespace, so a reply in words
starts exactly ``{"reply":"``. ``ReplyStream`` then decodes the JSON string as it grows and hands out the
new text, so a role with tools (the Creator) streams its answer like a role without. What it hands out adds
up to the final reply (``LlmResult.content``: the string, stripped): leading and trailing whitespace is held
back, and an escape sequence cut in two waits for its second half.
"""

from __future__ import annotations

import json

PREFIX = '{"reply":"'


class ReplyStream:
    def __init__(self) -> None:
        self._head = ""
        self._raw: str | None = None  # the JSON string's body so far, once the prefix matched
        self._done = False
        self.sent = ""  # everything handed out so far

    @property
    def active(self) -> bool:
        """The reply is words (its prefix matched)."""
        return self._raw is not None

    def feed(self, text: str) -> str:
        """The new visible text after ``text`` arrived ("" when none is safe to show yet)."""
        if self._done or not text:
            return ""
        if self._raw is None:
            self._head += text
            if len(self._head) < len(PREFIX):
                if not PREFIX.startswith(self._head):
                    self._done = True  # a tool call (or anything else): nothing to stream
                return ""
            if not self._head.startswith(PREFIX):
                self._done = True
                return ""
            self._raw = self._head[len(PREFIX) :]
        else:
            self._raw += text
        body, closed = _complete_part(self._raw)
        self._done = closed
        try:
            decoded = json.loads(f'"{body}"').lstrip()
        except json.JSONDecodeError:
            return ""
        shown = decoded.strip() if closed else decoded.rstrip()
        if not shown.startswith(self.sent):
            return ""
        new, self.sent = shown[len(self.sent) :], shown
        return new


def _complete_part(raw: str) -> tuple[str, bool]:
    """The longest prefix of a JSON string body that decodes on its own, and whether the string closed."""
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == '"':
            return raw[:i], True
        if c == "\\":
            need = 6 if raw[i + 1 : i + 2] == "u" else 2
            if i + need > len(raw):
                return raw[:i], False
            i += need
            continue
        i += 1
    return raw, False
