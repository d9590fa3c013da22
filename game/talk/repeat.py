"""Repetition in a small model's reply: a sentence said twice, or the same run of words said again.

``first_repeat(text)`` is where the text starts repeating itself (None when it does not): the reply shown to
the player is cut there. The stream watch calls it as pieces arrive, so a loop stops at its first repeat.
"""

from __future__ import annotations

import re

NGRAM = 5  # a run of this many words seen before counts as a repeat
_WORD = re.compile(r"[A-Za-z0-9']+")
_SENT = re.compile(r"[^.!?\n]+[.!?\n]")


def _key(text: str) -> str:
    return " ".join(w.lower() for w in _WORD.findall(text))


def first_repeat(text: str, ngram: int = NGRAM) -> int | None:
    """The character offset where the first repeated sentence or word n-gram starts, else None."""
    seen: set[str] = set()
    for m in _SENT.finditer(text):
        key = _key(m.group(0))
        if len(key) < 12:  # "Yes." twice is not a loop
            continue
        if key in seen:
            return m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        seen.add(key)
    words = list(_WORD.finditer(text))
    grams: set[tuple[str, ...]] = set()
    for i in range(len(words) - ngram + 1):
        gram = tuple(w.group(0).lower() for w in words[i : i + ngram])
        if gram in grams:
            return words[i].start()
        grams.add(gram)
    return None


def repeats(text: str) -> bool:
    return first_repeat(text) is not None
