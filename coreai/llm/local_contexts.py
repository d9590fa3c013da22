"""One llama.cpp context per role, so that each role's evaluated prompt prefix stays in its own KV state.

llama.cpp reuses the KV state of the longest common token prefix with the previous request on the same
context. With one context, a Chat turn between two director decisions would evict the director's prefix
(about 1,200 tokens: seconds of prompt evaluation on two cores). ``RoleContexts`` keeps up to ``size``
contexts over the same GGUF file (the weights are memory-mapped, so the pages are shared) and hands each role
its own; past ``size`` roles, the least recently used role's context is handed over. Only the client's owner
thread calls it, and only one context computes at a time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from loguru import logger

_log = logger.bind(feature="llm", trace_id="contexts")


class RoleContexts:
    def __init__(self, make: Callable[[], Any], size: int, first: Any) -> None:
        self._make = make
        self.size = max(1, size)
        self._free: list[Any] = [first]
        self._by_role: OrderedDict[str, Any] = OrderedDict()

    def get(self, role: str) -> Any:
        llm = self._by_role.get(role)
        if llm is not None:
            self._by_role.move_to_end(role)
            return llm
        if self._free:
            llm = self._free.pop()
        elif len(self._by_role) < self.size:
            llm = self._make()
            _log.info("context {} of {} created for role {}", len(self._by_role) + 1, self.size, role)
        else:
            old, llm = self._by_role.popitem(last=False)
            _log.info("role {} takes over the context of role {} (least recently used)", role, old)
        self._by_role[role] = llm
        return llm

    def roles(self) -> list[str]:
        return list(self._by_role)

    def clear(self) -> None:
        self._free.clear()
        self._by_role.clear()
