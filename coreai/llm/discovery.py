"""Finding local model servers: a quick look at the usual loopback ports for an OpenAI-compatible API.

``discover()`` asks ``GET /v1/models`` on 127.0.0.1 only (never another host) at the default ports of
LM Studio (1234), Ollama (11434), llama.cpp's llama-server (8080) and llama-cpp-python's server (8000), all
at once, and returns within ``timeout_s`` (300 ms by default) whatever answered with a model list. A closed
port refuses at once; a port that hangs is left behind when the time is up. The game runs it off the main
thread at startup and offers each server's models as backends (``game.ai.discovered``).
"""

from __future__ import annotations

import http.client
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from loguru import logger

from coreai.persist import loads_json

LOOPBACK = "127.0.0.1"
MAX_BODY = 1 << 20  # a model list is small; anything bigger is not one
MAX_MODELS = 4  # models offered per server (the F6 cycle stays short)
_log = logger.bind(feature="llm", trace_id="discovery")


@dataclass(frozen=True)
class KnownServer:
    label: str  # how the player knows it: "LM Studio", "Ollama"...
    slug: str  # the backend name's prefix: "lmstudio/<model>"
    port: int


KNOWN_SERVERS: tuple[KnownServer, ...] = (
    KnownServer("LM Studio", "lmstudio", 1234),
    KnownServer("Ollama", "ollama", 11434),
    KnownServer("llama-server", "llama-server", 8080),
    KnownServer("llama-cpp-python", "llama-cpp", 8000),
)


@dataclass(frozen=True)
class FoundServer:
    server: KnownServer
    models: tuple[str, ...]

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.server.port}/v1"

    def backend_name(self, model: str) -> str:
        return f"{self.server.slug}/{model}"

    def label(self, model: str) -> str:
        """What F6 and ``/backend`` show: ``openai: Ollama qwen2.5:7b``."""
        return f"openai: {self.server.label} {model}"


def _models(port: int, timeout_s: float) -> tuple[str, ...] | None:
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=timeout_s)
    try:
        conn.request("GET", "/v1/models", headers={"Accept": "application/json"})
        resp = conn.getresponse()
        if resp.status != 200:
            return None
        data = loads_json(resp.read(MAX_BODY))
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        conn.close()
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    names = [str(m["id"]) for m in items if isinstance(m, dict) and isinstance(m.get("id"), str)]
    return tuple(n for n in names if n and len(n) <= 48 and not any(c.isspace() for c in n))[:MAX_MODELS]


def discover(servers: Sequence[KnownServer] = KNOWN_SERVERS, timeout_s: float = 0.3) -> list[FoundServer]:
    """The servers among ``servers`` that answer ``GET /v1/models`` on loopback within ``timeout_s``."""
    found: dict[int, FoundServer] = {}
    lock = threading.Lock()

    def probe(server: KnownServer) -> None:
        models = _models(server.port, timeout_s)
        if models:
            with lock:
                found[server.port] = FoundServer(server, models)

    t0 = time.monotonic()
    threads = [
        threading.Thread(target=probe, args=(s,), name=f"discover-{s.port}", daemon=True) for s in servers
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(0.0, timeout_s - (time.monotonic() - t0)))
    with lock:
        result = [found[s.port] for s in servers if s.port in found]
    _log.info(
        "local servers found in {:.0f} ms: {}",
        (time.monotonic() - t0) * 1000,
        ", ".join(f"{f.server.label} ({len(f.models)} models)" for f in result) or "none",
    )
    return result


def servers_from_env(default: Sequence[KnownServer] = KNOWN_SERVERS) -> tuple[KnownServer, ...]:
    """``ARENA_DISCOVER_PORTS`` overrides the ports probed: ``""`` probes none, ``"8000,ollama=11500"`` probes
    those (a bare port takes the label of the known server on it, else "local server")."""
    raw = os.environ.get("ARENA_DISCOVER_PORTS")
    if raw is None:
        return tuple(default)
    by_port = {s.port: s for s in KNOWN_SERVERS}
    by_slug = {s.slug: s for s in KNOWN_SERVERS}
    out: list[KnownServer] = []
    for item in filter(None, (p.strip() for p in raw.split(","))):
        slug, _, port_text = item.rpartition("=")
        try:
            port = int(port_text)
        except ValueError:
            _log.warning("ARENA_DISCOVER_PORTS: '{}' is not a port; skipped", item)
            continue
        known = by_slug.get(slug) or by_port.get(port)
        if known is not None:
            out.append(KnownServer(known.label, known.slug, port))
        else:
            out.append(KnownServer("local server", slug or "local", port))
    return tuple(out)
