"""Configuration models of the real backends; ``coreai.settings`` embeds them as [llm.local] and
[llm.openai]."""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

from coreai.paths import models_dir

DEFAULT_MODEL_PATH = str(models_dir() / "SmolLM2-135M-Instruct.Q4_1.gguf")


class LocalLlmConfig(BaseModel):
    """llama-cpp-python running a GGUF file in this process."""

    model_config = ConfigDict(extra="forbid")

    model_path: str = Field(DEFAULT_MODEL_PATH, description="Path to any GGUF model file.")
    n_ctx: int = Field(4096, ge=256, le=131072, description="Context window in tokens.")
    # one core stays free for the game's frame: on 2 cores, 2 inference threads broke the frame-time target
    n_threads: int = Field(max(1, min(4, (os.cpu_count() or 2) - 1)), ge=1, le=256)
    n_gpu_layers: int = Field(0, ge=-1, description="Layers to offload to a GPU (-1 = all, 0 = CPU only).")
    chat_format: str | None = Field(None, description="Override llama.cpp's chat template detection.")
    max_tokens: int = Field(256, ge=1, le=8192)
    contexts: int = Field(
        3, ge=1, le=16, description="llama.cpp contexts kept, one per role, so each role's prefix stays warm."
    )
    prefix_store_mb: int = Field(
        256,
        ge=0,
        le=16384,
        description="Disk for each role's saved prompt prefix (saves/cache/llm): a new session starts warm "
        "(0 = off).",
    )
    prompt_cache_mb: int = Field(
        0, ge=0, le=16384, description="RAM for llama.cpp's prompt cache on top of the contexts (0 = off)."
    )


class OpenAILlmConfig(BaseModel):
    """Any OpenAI-compatible HTTP server (LM Studio, Ollama, llama.cpp server, vLLM, a hosted API)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = Field(None, description="Defaults to $OPENAI_BASE_URL, then OpenAI's own URL.")
    api_key: str | None = Field(None, description="Defaults to $OPENAI_API_KEY; local servers ignore it.")
    model: str = Field("local-model", description="Model name the server expects.")
    connect_timeout_s: float = Field(3.0, gt=0, le=60)
    read_timeout_s: float = Field(30.0, gt=0, le=600)
    max_tokens: int = Field(256, ge=1, le=8192)
    send_json_schema: bool = Field(True, description="Send the reply schema where the server accepts one.")
