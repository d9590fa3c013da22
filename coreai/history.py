"""Deterministic compaction of a long chat history into a short summary message (no model call).

Older turns become one line each (``- Player: …`` / ``- Agent: …``, first line, cut to a fixed width),
appended to the previous summary; if the summary outgrows its budget the oldest lines go first. The same
input always gives the same summary, so it is cheap, testable and stable for prompt caching.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from coreai.llm.types import ChatMessage

SUMMARY_TITLE = "## Conversation Summary"
_OMITTED = "- (earlier turns omitted)"


class HistoryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Literal["user", "assistant"]
    content: str = Field(max_length=20_000)


def _line(entry: HistoryEntry, width: int) -> str:
    who = "Player" if entry.role == "user" else "Agent"
    first = " ".join(entry.content.split())  # collapse whitespace and newlines
    if len(first) > width:
        first = first[: width - 1].rstrip() + "…"
    return f"- {who}: {first}"


def _size(lines: Sequence[str]) -> int:
    return sum(len(ln) + 1 for ln in lines)


def compact_history(
    entries: Sequence[HistoryEntry],
    *,
    keep_recent: int,
    previous_summary: str = "",
    max_chars: int = 1500,
    line_chars: int = 160,
) -> tuple[str, list[HistoryEntry]]:
    """Fold all but the last ``keep_recent`` entries into the summary; returns (summary, recent entries)."""
    if len(entries) <= keep_recent:
        return previous_summary, list(entries)
    older, recent = entries[: len(entries) - keep_recent], entries[len(entries) - keep_recent :]
    lines = [ln for ln in previous_summary.splitlines() if ln and ln != _OMITTED]
    lines.extend(_line(e, line_chars) for e in older)
    dropped = _OMITTED in previous_summary
    while lines and _size(lines) + (len(_OMITTED) + 1 if dropped else 0) > max_chars:
        lines.pop(0)
        dropped = True
    if dropped:
        lines.insert(0, _OMITTED)
    return "\n".join(lines), list(recent)


def history_messages(summary: str, entries: Sequence[HistoryEntry]) -> list[ChatMessage]:
    """The summary (as a system message) followed by the recent turns, ready for a request."""
    out: list[ChatMessage] = []
    if summary:
        out.append(ChatMessage(role="system", content=f"{SUMMARY_TITLE}\n{summary}"))
    out.extend(ChatMessage(role=e.role, content=e.content) for e in entries)
    return out
