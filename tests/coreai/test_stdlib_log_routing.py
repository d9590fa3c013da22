"""One log: stdlib logging from uvicorn, the mcp SDK and httpx lands in the loguru file sink under the mcp/llm
feature tags (a real httpx2 request to a loopback HTTP server, real uvicorn and mcp loggers)."""

from __future__ import annotations

import http.server
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from loguru import logger

from coreai.logging import configure_logging, set_features, stdlib_feature
from coreai.settings import LogSettings


@pytest.fixture
def logfile(saves_dir: Path) -> Iterator[Path]:
    configure_logging(LogSettings(level="INFO", console=False, file=True, file_level="DEBUG"))
    yield saves_dir / "logs" / "coreai.log"
    set_features(None)
    configure_logging(LogSettings(console=False, file=False))


def _read(path: Path) -> list[str]:
    logger.complete()
    return path.read_text(encoding="utf-8").splitlines()


class _Quiet(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_feature_of_each_library() -> None:
    assert stdlib_feature("uvicorn.error") == "mcp"
    assert stdlib_feature("mcp.server.streamable_http") == "mcp"
    assert stdlib_feature("httpx") == "llm"
    assert stdlib_feature("openai._base_client") == "llm"
    assert stdlib_feature("mcpx") == "-"


def test_stdlib_lines_reach_the_log_file_with_feature_tags(logfile: Path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert httpx2.get(f"http://127.0.0.1:{server.server_port}/ping", timeout=5).text == "ok"
    finally:
        server.shutdown()
    logging.getLogger("uvicorn.error").warning("uvicorn says port busy")
    logging.getLogger("mcp.server.lowlevel.server").warning("mcp says bad session")
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("mcp.server").exception("mcp handler failed")
    lines = _read(logfile)
    request = [line for line in lines if "HTTP Request: GET" in line and "/ping" in line]
    assert request and "| llm " in request[0] and "| DEBUG " in request[0], lines[-5:]
    uvicorn_line = next(line for line in lines if "uvicorn says port busy" in line)
    assert "| mcp " in uvicorn_line and "WARNING" in uvicorn_line
    assert any("mcp says bad session" in line and "| mcp " in line for line in lines)
    text = "\n".join(lines)
    assert "ValueError: boom" in text  # the traceback comes along


def test_a_filtered_feature_drops_library_lines_too(logfile: Path) -> None:
    set_features(["game"])
    logging.getLogger("uvicorn.error").warning("hidden uvicorn line")
    logger.bind(feature="game", trace_id="t").warning("visible game line")
    text = "\n".join(_read(logfile))
    assert "visible game line" in text and "hidden uvicorn line" not in text
