"""Builds a real backend by name: ``"local"`` (llama-cpp-python) or ``"openai"`` (OpenAI-compatible HTTP).

The routing client and the rules/stub backends live elsewhere; this module only knows the two real ones.
A missing or corrupt local model raises ``LlmError(UNAVAILABLE)`` with a player-readable message right here
(a header check, no load), so the caller can log it and fall back to the rules backend. The model itself
loads on the client's owner thread; ``LocalLlmClient.wait_ready()`` waits for it.
"""

from __future__ import annotations

from loguru import logger

from coreai.errors import SettingsError
from coreai.llm.config import LocalLlmConfig, OpenAILlmConfig
from coreai.llm.health import require_model_file
from coreai.llm.local import LocalLlmClient, ProgressCallback
from coreai.llm.openai_backend import OpenAIBackend
from coreai.llm.types import LlmClient

REAL_BACKENDS = ("local", "openai")


def build_backend(
    name: str,
    local: LocalLlmConfig,
    openai: OpenAILlmConfig,
    *,
    prompt_cache_bytes: int = 0,
    on_progress: ProgressCallback | None = None,
) -> LlmClient:
    """A new client for backend ``name``.

    Raises ``LlmError(UNAVAILABLE)`` when the local model file is missing or corrupt, and ``SettingsError``
    for a name that is not a real backend.
    """
    log = logger.bind(feature="llm", trace_id="factory")
    if name == "local":
        require_model_file(local.model_path)
        log.info(
            "building local backend on {} (n_ctx={}, threads={})",
            local.model_path,
            local.n_ctx,
            local.n_threads,
        )
        return LocalLlmClient(local, prompt_cache_bytes=prompt_cache_bytes, on_progress=on_progress)
    if name == "openai":
        client = OpenAIBackend(openai)
        log.info("building openai backend on {} (model {})", client.base_url, openai.model)
        return client
    expected = ", ".join(REAL_BACKENDS)
    raise SettingsError("llm.backend", f"unknown real backend '{name}' (expected one of {expected})")
