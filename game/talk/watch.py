"""The stream watch: what of a streaming reply the player may see, and where the model must stop.

A reply is cut (and the model stopped) at the first of: a repeated sentence or word run, a stop string,
raw tool output or JSON, or the end of the role's last allowed sentence. ``feed`` returns the newly visible
text; ``visible`` is everything shown so far, ``cut`` why the watch stopped it ("" while it runs on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from coreai.settings import TalkDecoding
from game.talk.guard import RAW
from game.talk.repeat import first_repeat

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def _sentence_cap(text: str, n: int) -> int | None:
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return ends[n - 1] if len(ends) >= n and ends[n - 1] < len(text.rstrip()) else None


@dataclass
class StreamWatch:
    decoding: TalkDecoding
    raw: str = ""
    visible: str = ""
    cut: str = ""
    _held: int = field(default=0, repr=False)

    def feed(self, piece: str) -> str:
        if self.cut:
            return ""
        self.raw += piece
        if not self.visible:
            self.raw = self.raw.lstrip()  # a reply that opens with blank lines is not a stop
        end, why = self._cut_at(self.raw)
        if why:
            self.cut = why
            shown = self.raw[:end].rstrip()
        else:
            shown = self._safe_prefix(self.raw)
        new = shown[len(self.visible) :] if shown.startswith(self.visible) else ""
        if why or shown.startswith(self.visible):
            self.visible = shown  # a cut may take back the start of a repeat already shown
        return new

    def finish(self, full: str | None = None) -> str:
        """The whole reply (the model's final text, if given) with the same cuts applied."""
        text = full if full is not None else self.raw
        end, why = self._cut_at(text)
        if why:
            self.cut = self.cut or why
            text = text[:end]
        return text.strip()

    def _cut_at(self, text: str) -> tuple[int, str]:
        found: list[tuple[int, str]] = []
        rep = first_repeat(text)
        if rep is not None:
            found.append((rep, "repeat"))
        for stop in self.decoding.stop:
            at = text.find(stop)
            if at >= 0:
                found.append((at, "stop"))
        raw = RAW.search(text)
        if raw:
            found.append((raw.start(), "raw"))
        cap = _sentence_cap(text, self.decoding.max_sentences)
        if cap is not None:
            found.append((cap, "sentences"))
        if len(text) > self.decoding.max_chars:
            found.append((self.decoding.max_chars, "length"))
        return min(found) if found else (len(text), "")

    def _safe_prefix(self, text: str) -> str:
        """Hold back a trailing partial word and a possible start of a stop string or raw output."""
        cut = len(text)
        for stop in [*self.decoding.stop, "get_", "{", "<|"]:
            for k in range(min(len(stop), len(text)), 0, -1):
                if text.endswith(stop[:k]):
                    cut = min(cut, len(text) - k)
                    break
        return text[:cut]
