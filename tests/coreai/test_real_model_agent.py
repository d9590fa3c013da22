"""The orchestrator with the real GGUF model (SmolLM2-135M through llama-cpp-python) behind the routing
pipeline: a Chat task gets a real, visible reply and the memory/history keep only visible text."""

from __future__ import annotations

from pathlib import Path

import pytest

from coreai.llm.config import LocalLlmConfig
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings

local = pytest.importorskip("coreai.llm.local")


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_chat_agent_answers_with_the_real_local_model(saves_dir: Path, log_records):
    cfg = LocalLlmConfig.model_validate({"n_ctx": 2048, "max_tokens": 48})
    if not Path(cfg.model_path).is_file():
        pytest.skip(f"model file missing: {cfg.model_path} (run `make model`)")
    client = local.LocalLlmClient(cfg)
    client.wait_ready(120)
    settings = Settings.model_validate({"llm": {"backends": {"Chat": "local"}, "timeout_s": 120}})
    runtime = CoreAiRuntime(settings, backends={"local": client})
    try:
        result = runtime.submit(AiTaskRequest(role="Chat", hint="Say hello to the player.")).result(240)
        again = runtime.submit(AiTaskRequest(role="Chat", hint="And what should I do next?")).result(240)
    finally:
        runtime.close()
        client.close()
    assert result.backend == "local" and result.content.strip()
    assert "<think" not in result.content and again.content.strip()
    _summary, history = runtime.memory.history("Chat")
    assert [e.content for e in history] == [
        "Say hello to the player.",
        result.content,
        "And what should I do next?",
        again.content,
    ]
    llm_lines = [r["message"] for r in log_records if r["extra"].get("feature") == "llm"]
    assert any(m.startswith("LLM ▶ role=Chat backend=local") for m in llm_lines)
    assert any(m.startswith("LLM ◀ role=Chat backend=local") for m in llm_lines)
