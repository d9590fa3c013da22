"""Keep llama-cpp-python from redirecting the whole process's stdout/stderr.

With ``verbose=False`` the library wraps model loading and some per-call steps (grammar building for forced
tool calls) in ``suppress_stdout_stderr``, which ``dup2``s file descriptors 1 and 2 to /dev/null for the whole
process. On the model's owner thread that silently swallows whatever every other thread prints meanwhile:
log lines, and (seen here) a command's entire JSON output when the main thread finished during a model load.
We replace that context manager with a no-op in the modules that use it; llama.cpp's own log callback still
filters native messages by level (errors only with ``verbose=False``).
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any

_MODULES = ("llama_cpp.llama", "llama_cpp._internals", "llama_cpp.llama_chat_format")
_done = False


class _NoRedirect(contextlib.AbstractContextManager[None]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        return None


def keep_process_output() -> None:
    """Idempotent; call before creating a ``Llama``."""
    global _done
    if _done:
        return
    for name in _MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "suppress_stdout_stderr"):
            setattr(module, "suppress_stdout_stderr", _NoRedirect)  # noqa: B010 - a patched library name
    _done = True
