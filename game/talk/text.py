"""A reply's text split into sentences: what the claim reader (``game.talk.claims``), the talk guard and the
knowledge file's doc sentences read one at a time."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def sentences(text: str) -> list[str]:
    """The text split into sentences (a newline also ends one)."""
    out: list[str] = []
    for line in text.splitlines():
        out.extend(s.strip() for s in _SENTENCE_END.split(line.strip()) if s.strip())
    return out
