"""Saved prompt prefixes: a role's evaluated prefix kept on disk, so a new session starts warm.

Evaluating the director's stable prefix (about 1,400 tokens: role, skills, tool contract) costs 8-30 s on a
2-core machine; its KV state is about 30 MB and loads in tens of milliseconds. ``PrefixStore`` keeps one file
per role in ``<saves>/cache/llm`` (``<role>-<key>.kv``, llama.cpp's own sequence-state format). The key hashes
everything the state depends on: the model file (name, size, modification time), llama.cpp's version, the
context size, the GPU offload and the prefix's tokens, so a changed prompt, model or library simply misses
and is evaluated as before. Only the client's owner thread calls it.

- ``restore(llm, role, tokens)`` loads a saved state into a context that lacks the prefix and returns how
  many tokens it holds now. A file llama.cpp refuses, or whose tokens are not the prefix, is quarantined
  (``<name>.corrupt-<time>``) and the prefix is evaluated as if there were none.
- ``save(llm, role, tokens)`` writes the prefix once it is in the context (after a completed warm-up, or
  after the role's first request): the context is cut back to the prefix, written to a temporary file and
  moved into place, so a crash never leaves a torn file. Older files of the role go, and the folder is
  kept under its byte budget, oldest first.

Nothing here raises: a store that cannot read or write logs a warning and the game pays the cold prompt.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from loguru import logger

from coreai.llm.config import LocalLlmConfig
from coreai.llm.local_run import common_prefix, stable_prefix
from coreai.llm.types import LlmRequest
from coreai.paths import saves_root
from coreai.persist import quarantine

_log = logger.bind(feature="llm", trace_id="prefix-store")
SUFFIX = ".kv"
MIN_TOKENS = 64  # shorter prefixes are cheap to evaluate: not worth a file


def _safe(role: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", role)[:40] or "role"


class PrefixStore:
    def __init__(
        self, folder: Path, *, model_path: str, n_ctx: int, n_gpu_layers: int, budget_mb: int
    ) -> None:
        self.folder = folder
        self.budget = budget_mb * 1_000_000
        st = Path(model_path).stat()
        import llama_cpp

        parts = (
            Path(model_path).name,
            st.st_size,
            st.st_mtime_ns,
            llama_cpp.__version__,
            n_ctx,
            n_gpu_layers,
        )
        self._ident = "|".join(map(str, parts)).encode("utf-8")
        self._done: set[str] = set()  # files this process restored or wrote: nothing more to save
        self.restored = self.saved = 0
        self._clean_stale()

    def _clean_stale(self) -> None:
        """Temporary files a crashed session left (older than an hour: a live session writes in ms)."""
        try:
            for p in self.folder.glob(f"*{SUFFIX}.tmp-*"):
                if time.time() - p.stat().st_mtime > 3600:
                    p.unlink(missing_ok=True)
        except OSError as exc:
            _log.warning("could not clean {}: {}", self.folder, exc)

    def path(self, role: str, tokens: Sequence[int]) -> Path:
        h = hashlib.sha256(self._ident)
        h.update(b"|".join(str(t).encode() for t in tokens))
        return self.folder / f"{_safe(role)}-{h.hexdigest()[:20]}{SUFFIX}"

    def restore(self, llm: Any, role: str, tokens: Sequence[int]) -> int:
        """Load ``role``'s saved ``tokens`` into ``llm`` if a file holds them; the tokens ``llm`` now holds
        of the prefix (0 when nothing was loaded: the context is then empty)."""
        path = self.path(role, tokens)
        if len(tokens) < MIN_TOKENS or not path.is_file():
            return 0
        import llama_cpp

        t0 = time.perf_counter()
        llm._ctx.kv_cache_seq_rm(-1, 0, -1)  # the file replaces whatever part of the prefix the context held
        llm.n_tokens = 0
        out = (llama_cpp.llama_token * len(tokens))()
        n = ctypes.c_size_t(0)
        try:
            read = llama_cpp.llama_state_seq_load_file(
                llm._ctx.ctx, str(path).encode(), 0, out, len(tokens), ctypes.byref(n)
            )
        except Exception as exc:  # a binding that refuses the call: treat as unreadable
            read, why = 0, str(exc)
        else:
            why = "llama.cpp refused the state file"
        got = list(out[: n.value]) if read else []
        if not read or got != list(tokens):
            llm._ctx.kv_cache_seq_rm(-1, 0, -1)
            try:
                quarantine(path, why if not read else "its tokens are not the prompt's prefix")
            except OSError as exc:
                _log.warning("could not move the unreadable prefix {} aside: {}", path.name, exc)
            return 0
        llm.input_ids[: len(got)] = got
        llm.n_tokens = len(got)
        llm._requires_eval = True  # the logits were not produced by a live decode
        self._done.add(path.name)
        self.restored += 1
        _log.info(
            "role {}: {} prefix tokens restored from {} in {:.0f} ms",
            role, len(got), path.name, (time.perf_counter() - t0) * 1000,
        )  # fmt: skip
        return len(got)

    def warm(self, llm: Any, request: LlmRequest, backend: str) -> list[int]:
        """``request``'s stable prefix, restored from disk first if ``llm`` lacks it."""
        prefix = stable_prefix(llm, request, backend)
        if common_prefix(llm, prefix) < len(prefix):
            self.restore(llm, request.role, prefix)
        return prefix

    def keep(self, llm: Any, role: str, prefix: list[int]) -> None:
        """``save``, never raising: the store must not take the owner thread down."""
        try:
            self.save(llm, role, prefix)
        except Exception as exc:
            _log.warning("prefix of role {} not saved: {}", role, exc)

    def save(self, llm: Any, role: str, tokens: Sequence[int]) -> bool:
        """Write ``tokens`` (which ``llm`` must hold as its first tokens) as ``role``'s saved prefix; the
        context is cut back to them. False when the context does not hold them or the write failed."""
        path = self.path(role, tokens)
        n = len(tokens)
        if n < MIN_TOKENS or path.name in self._done:
            return False
        if llm.n_tokens < n or list(llm.input_ids[:n]) != list(tokens):
            held = int(common_prefix(llm, list(tokens)))
            _log.debug("role {}: prefix not saved, the context holds {} of its {} tokens", role, held, n)
            return False
        import llama_cpp

        t0 = time.perf_counter()
        llm._ctx.kv_cache_seq_rm(-1, n, -1)  # the prefix alone: the tail and reply are per request
        llm.n_tokens = n
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
        arr = (llama_cpp.llama_token * n)(*tokens)
        try:
            if not llama_cpp.llama_state_seq_save_file(llm._ctx.ctx, str(tmp).encode(), 0, arr, n):
                raise OSError("llama.cpp wrote nothing")
            os.replace(tmp, path)
        except Exception as exc:
            tmp.unlink(missing_ok=True)
            _log.warning("role {}: could not save its prefix ({}): {}", role, path.name, exc)
            self._done.add(path.name)  # do not retry on every request
            return False
        self._done.add(path.name)
        self.saved += 1
        size = path.stat().st_size
        _log.info(
            "role {}: {} prefix tokens saved to {} ({:.1f} MB, {:.0f} ms)",
            role, n, path.name, size / 1e6, (time.perf_counter() - t0) * 1000,
        )  # fmt: skip
        self._prune(role, keep=path)
        return True

    def _prune(self, role: str, keep: Path) -> None:
        """Drop the role's older files, then the oldest files until the folder fits its budget."""
        try:
            files = sorted(self.folder.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime)
            for p in files:
                if p != keep and p.name.startswith(f"{_safe(role)}-"):
                    p.unlink(missing_ok=True)
            files = [p for p in files if p.exists()]
            total = sum(p.stat().st_size for p in files)
            for p in files:
                if total <= self.budget or p == keep:
                    continue
                total -= p.stat().st_size
                p.unlink(missing_ok=True)
        except OSError as exc:
            _log.warning("could not prune {}: {}", self.folder, exc)


def open_store(config: LocalLlmConfig) -> PrefixStore | None:
    """The store for ``config`` in ``<saves>/cache/llm`` (None when ``prefix_store_mb`` is 0 or it cannot be
    opened: the prefix is then evaluated each session, as before)."""
    if config.prefix_store_mb <= 0:
        return None
    try:
        return PrefixStore(
            saves_root() / "cache" / "llm",
            model_path=config.model_path,
            n_ctx=config.n_ctx,
            n_gpu_layers=config.n_gpu_layers,
            budget_mb=config.prefix_store_mb,
        )
    except Exception as exc:
        _log.warning("no prefix store: {}", exc)
        return None
