"""Trim old tool exchanges from a conversation without ever orphaning a tool result.

A *unit* is an assistant message carrying tool calls plus the tool messages that answer it. Once the
tool-related messages exceed the limit, whole units are dropped oldest first; the newest unit, system
messages and every ordinary user/assistant message are always kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from coreai.llm.types import ChatMessage


def _units(messages: Sequence[ChatMessage]) -> list[tuple[int, int]]:
    """(start, end) index ranges of the tool units, end exclusive."""
    units: list[tuple[int, int]] = []
    i = 0
    while i < len(messages):
        msg = messages[i]
        if msg.role == "assistant" and msg.tool_calls:
            ids = {c.id for c in msg.tool_calls}
            j = i + 1
            while j < len(messages) and messages[j].role == "tool" and messages[j].tool_call_id in ids:
                j += 1
            units.append((i, j))
            i = j
        else:
            i += 1
    return units


def trim_tool_history(messages: Sequence[ChatMessage], max_tool_messages: int) -> list[ChatMessage]:
    """Drop the oldest tool units until at most ``max_tool_messages`` tool-related messages remain
    (0 = unlimited); the newest unit is kept even if it alone is larger."""
    if max_tool_messages <= 0:
        return list(messages)
    units = _units(messages)
    total = sum(end - start for start, end in units)
    drop: set[int] = set()
    for start, end in units[:-1]:
        if total <= max_tool_messages:
            break
        drop.update(range(start, end))
        total -= end - start
    if not drop:
        return list(messages)
    return [m for i, m in enumerate(messages) if i not in drop]
