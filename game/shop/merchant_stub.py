"""The offline stub's scripted Merchant: the reference flow without a model.

Asked anything, it calls ``get_inventory`` (or ``buy_item`` for "buy <item>") and then answers from the
tool's result, so the shop conversation works offline and in tests exactly like a real model's turn would.
"""

from __future__ import annotations

import json
import re
from typing import Any

from coreai.llm.stub import tool_reply
from coreai.llm.types import ChatMessage, LlmRequest, LlmResult
from coreai.persist import loads_json

_BUY = re.compile(r"\b(?:buy|purchase|take)\s+(?:a |an |the |one |some )?([a-z][a-z _-]{1,40})", re.I)


def _last(messages: tuple[ChatMessage, ...], role: str) -> ChatMessage | None:
    return next((m for m in reversed(messages) if m.role == role), None)


def _coins(n: object) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _shelf(result: dict[str, Any]) -> str:
    items = [i for i in result.get("items", []) if i.get("stock", 0) > 0]
    if not items:
        return "My shelves are bare, friend."
    listed = "; ".join(
        f"{i['name']} for {i['price']} coins ({i['effect']}, {i['stock']} left)" for i in items
    )
    return f"I've got {listed}. You have {result.get('coins', 0)} coins."


_TRACE = re.compile(r" \[trace [^]]*\]$")
_NOTE = re.compile(r"^(get_inventory|buy_item) returned: (\{.*\})$", re.M)


def _tool_result(messages: tuple[ChatMessage, ...]) -> str | None:
    """The latest tool result: a tool message (auto mode) or the loop's note after a forced call."""
    for m in reversed(messages):
        if m.role == "tool":
            return m.content
        if m.role == "user":
            found = _NOTE.search(m.content)
            return found.group(2) if found else None
    return None


def merchant_reply(request: LlmRequest) -> str | LlmResult:
    raw = _tool_result(request.messages)
    if raw is not None:
        try:
            data = loads_json(raw)
        except json.JSONDecodeError:
            return f"Hm, no deal: {raw[:160]}"
        result = data.get("result") if isinstance(data, dict) else None
        if isinstance(result, dict) and "items" in result:
            return _shelf(result)
        if isinstance(result, dict) and "balance" in result:
            return (
                f"Pleasure doing business: {result.get('name')} is yours ({result.get('effect')}). "
                f"{_coins(result.get('balance'))} left."
            )
        if isinstance(data, dict) and "error" in data:
            reason = str(data["error"]).split("rejected: ", 1)[-1]
            return "No deal: " + _TRACE.sub("", reason)
        return f"No deal: {raw[:160]}"
    user = _last(request.messages, "user")
    offered = {t.name for t in request.tools}
    wanted = _BUY.search(user.content if user is not None else "")
    if wanted and "buy_item" in offered and request.tool_choice in ("auto", "buy_item"):
        return tool_reply(("buy_item", {"item": wanted.group(1).strip(" .!?")}))
    if "get_inventory" in offered:
        return tool_reply(("get_inventory", {}))
    return "Come back between waves and look at my shelf."
