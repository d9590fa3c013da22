"""Model servers on loopback are found at startup within 300 ms, off the main thread, and offered as backends
and director modes with their models; only 127.0.0.1 is contacted; silent or odd servers are skipped."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from llm_testkit import free_port

from coreai.llm.discovery import LOOPBACK, KnownServer, discover, servers_from_env


class _Models(http.server.BaseHTTPRequestHandler):
    body: bytes = b""
    delay_s = 0.0

    def do_GET(self) -> None:
        time.sleep(self.delay_s)
        if self.path != "/v1/models":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: Any) -> None:
        pass


def serve(body: Any, delay_s: float = 0.0) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = type("H", (_Models,), {"body": json.dumps(body).encode(), "delay_s": delay_s})
    server = http.server.ThreadingHTTPServer((LOOPBACK, 0), handler)
    server.handle_error = lambda *args: None  # type: ignore[method-assign]  # a client that gave up
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, int(server.server_address[1])


@pytest.fixture
def servers() -> Iterator[list[http.server.ThreadingHTTPServer]]:
    started: list[http.server.ThreadingHTTPServer] = []
    yield started
    for s in started:
        s.shutdown()
        s.server_close()


def test_servers_that_answer_are_found_in_time(servers: list[Any]) -> None:
    good, good_port = serve({"object": "list", "data": [{"id": "qwen2.5:7b"}, {"id": "llama3.2:1b"}]})
    slow, slow_port = serve({"data": [{"id": "late"}]}, delay_s=2.0)
    odd, odd_port = serve({"models": "not a list"})
    servers += [good, slow, odd]
    closed = free_port()
    known = [
        KnownServer("Ollama", "ollama", good_port),
        KnownServer("llama-server", "llama-server", slow_port),
        KnownServer("LM Studio", "lmstudio", odd_port),
        KnownServer("llama-cpp-python", "llama-cpp", closed),
    ]
    t0 = time.monotonic()
    found = discover(known)
    assert time.monotonic() - t0 < 0.45, "within 300 ms (plus thread start-up)"
    assert [f.server.label for f in found] == ["Ollama"]
    (ollama,) = found
    assert ollama.models == ("qwen2.5:7b", "llama3.2:1b")
    assert ollama.base_url == f"http://127.0.0.1:{good_port}/v1"
    assert ollama.backend_name("qwen2.5:7b") == "ollama/qwen2.5:7b"
    assert ollama.label("qwen2.5:7b") == "openai: Ollama qwen2.5:7b"


def test_the_port_list_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_DISCOVER_PORTS", "")
    assert servers_from_env() == ()
    monkeypatch.setenv("ARENA_DISCOVER_PORTS", "11434, llama-cpp=45000, 7777, nope")
    got = servers_from_env()
    assert [(s.label, s.slug, s.port) for s in got] == [
        ("Ollama", "ollama", 11434),
        ("llama-cpp-python", "llama-cpp", 45000),
        ("local server", "local", 7777),
    ]
    monkeypatch.delenv("ARENA_DISCOVER_PORTS")
    assert [s.port for s in servers_from_env()] == [1234, 11434, 8080, 8000]


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_real_llama_cpp_server_is_offered_in_f6_and_backend(
    llama_server: Any, saves_dir: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Startup finds a real ``llama_cpp.server`` on loopback, no setting needed: F6 offers it as a mode,
    ``/backend`` switches a role to it after its health probe, and the Chat role answers through it."""
    from coreai.llm.registry import BACKENDS
    from coreai.settings import Settings
    from game.ai.backends import BackendSetup, offline_stub
    from game.ai.session import AiSession
    from game.options import LaunchOptions

    port = llama_server.base_url.rsplit(":", 1)[1].split("/")[0]
    monkeypatch.setenv("ARENA_DISCOVER_PORTS", f"llama-cpp={port}")
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    setup = BackendSetup(registry={"stub": offline_stub()}, routes={})
    session = AiSession(LaunchOptions(), settings=settings, setup=setup, configure_logs=False)
    name = "llama-cpp/smollm2"
    noticed: list[str] = []
    session.on_notice = lambda kind, text: noticed.append(text)
    try:
        session.startup.join(10)
        deadline = time.monotonic() + 5
        while name not in session.director.modes() and time.monotonic() < deadline:
            session.runtime.drain()  # the main thread takes the found servers
            time.sleep(0.02)
        assert name in session.director.modes(), session.director.modes()
        session.runtime.mainloop.drain_ui()  # notices reach the main thread through the UI lane
        assert "openai: llama-cpp-python smollm2" in " ".join(noticed)
        assert session.switch_backend("Chat", name) == f"Chat now uses {name}", "its health probe passed"
        assert session.runtime.router.backend_for("Chat") == name
    finally:
        session.close()
        BACKENDS.remove(name)
