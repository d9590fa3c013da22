"""Fixtures of the LLM backend tests: the real local model, a real llama.cpp server, a faulty loopback server.

The model-backed fixtures are module- or session-scoped (loading is cheap, generating is not) and keep
n_ctx and max_tokens small so the suite stays fast on two cores.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_fault_server import FaultServer
from llm_testkit import MODEL_PATH, LlamaServer

from coreai.llm.config import LocalLlmConfig, OpenAILlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.openai_backend import OpenAIBackend


@pytest.fixture(scope="session")
def model_path() -> Path:
    if not MODEL_PATH.exists():
        pytest.fail(f"{MODEL_PATH} is missing: run `make model`")
    return MODEL_PATH


@pytest.fixture(scope="session")
def local_config(model_path: Path) -> LocalLlmConfig:
    # one thread: two llama.cpp threads on two cores that other work loads stall at every barrier (seen: a
    # 24-token reply taking 88 s instead of 1 s), and the game itself runs inference on one thread
    return LocalLlmConfig(model_path=str(model_path), n_ctx=1024, n_threads=1, max_tokens=160)


@pytest.fixture(scope="module")
def local_client(local_config: LocalLlmConfig) -> Iterator[LocalLlmClient]:
    client = LocalLlmClient(local_config)
    client.wait_ready(60)
    yield client
    client.close()


@pytest.fixture(scope="session")
def fault_server() -> Iterator[FaultServer]:
    server = FaultServer()
    yield server
    server.stop()


@pytest.fixture
def fault_backend(fault_server: FaultServer) -> Iterator[OpenAIBackend]:
    """A backend on the fault server; pick the fault with ``fault_backend.model = "<scenario>"``."""
    backend = OpenAIBackend(
        OpenAILlmConfig(
            base_url=fault_server.base_url,
            model="ok",
            connect_timeout_s=1.0,
            read_timeout_s=0.5,
            max_tokens=64,
        )
    )
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory, model_path: Path) -> Iterator[LlamaServer]:
    # one server for the session's tests. The director's request (the CLI test) is about 2,000 prompt tokens
    # plus a 200-token reply: more than 2048. llama_cpp.server does not refuse such a request: it shrinks
    # max_tokens to what the window has left and cuts the reply there, and a forced tool's cut-off call
    # still ends with finish_reason "tool_calls" (seen: arguments ending mid-string after 45 tokens)
    server = LlamaServer(tmp_path_factory.mktemp("llama-server") / "server.log", n_ctx=4096)
    try:
        server.wait_ready(60)
        yield server
    finally:
        server.stop()


@pytest.fixture
def server_backend(llama_server: LlamaServer) -> Iterator[OpenAIBackend]:
    url = llama_server.base_url
    config = OpenAILlmConfig(base_url=url, model="smollm2", read_timeout_s=60, max_tokens=120)
    backend = OpenAIBackend(config)
    yield backend
    backend.close()
