"""Separate a model's reasoning from its visible answer.

Some models inline their thinking as ``<think>…</think>`` (or stop mid-thought, or emit only the closing
tag). ``split_reasoning`` returns ``(visible, reasoning)``; only ``visible`` may reach memory, commands,
chat history or the player. Backends call it on raw output; the orchestrator calls it again on every reply
as a second line of defence.
"""

from __future__ import annotations

import re

_SPAN = re.compile(r"<think(?:ing)?>(.*?)</think(?:ing)?>", re.IGNORECASE | re.DOTALL)
_OPEN = re.compile(r"<think(?:ing)?>", re.IGNORECASE)
_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)


def split_reasoning(text: str) -> tuple[str, str]:
    thoughts: list[str] = []

    def _take(match: re.Match[str]) -> str:
        thoughts.append(match.group(1).strip())
        return ""

    visible = _SPAN.sub(_take, text)
    close = _CLOSE.search(visible)
    if close:  # a closing tag without its opening one: everything before it was thinking
        thoughts.insert(0, visible[: close.start()].strip())
        visible = visible[close.end() :]
    opened = _OPEN.search(visible)
    if opened:  # generation stopped mid-thought: the rest is thinking
        thoughts.append(visible[opened.end() :].strip())
        visible = visible[: opened.start()]
    return visible.strip(), "\n".join(t for t in thoughts if t)
