"""A process-wide switch that real backends consult before every model call.

The test suite turns it off by default (an autouse fixture), so an accidental real LLM call fails fast
with a clear error; tests that mean to call a real model opt in with ``@pytest.mark.real_llm``.
In the game it is always on.
"""

from __future__ import annotations

import threading

from coreai.errors import LlmError, LlmErrorCode

_lock = threading.Lock()
_allowed = True


def set_real_calls_allowed(allowed: bool) -> None:
    global _allowed
    with _lock:
        _allowed = allowed


def real_calls_allowed() -> bool:
    return _allowed


def check_real_call(backend: str) -> None:
    """Raise if real model calls are switched off (tests without the ``real_llm`` marker)."""
    if not _allowed:
        raise LlmError(
            LlmErrorCode.UNAVAILABLE,
            "real LLM calls are disabled here (mark the test with @pytest.mark.real_llm to allow them)",
            backend=backend,
        )
