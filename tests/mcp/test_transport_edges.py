"""The MCP transport's edges with a real HTTP client on 127.0.0.1 (issue 38 item 5).

- A 5 MB body sent with a Content-Length gets a readable 413 JSON answer, the same as sent chunked. Before,
  the server answered at once and, for a client that sends ``Connection: close`` (urllib does), closed the
  connection with the body still arriving: the kernel reset it and the client read a connection reset
  (urllib) or a broken pipe (a slow upload) instead of the answer.
- A connection that does not finish its request headers within ``header_timeout_s`` (5 s) is closed, the
  first request's and a later keep-alive request's alike. Before, 20 such connections stayed open for 30 s.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx2
import pytest
from mcp_glue import TOKEN

from coreai.mcp import SkillLibrary
from coreai.tools.view_tools import read_skill_tool

pytestmark = pytest.mark.timeout(120)
FIVE_MB = 5 * 1024 * 1024


@pytest.fixture
def server(start_server: Any) -> Any:
    return start_server([read_skill_tool(SkillLibrary())])


def _headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def _refused(body: bytes) -> str:
    data = json.loads(body)
    assert data["status"] == 413, data
    return str(data["error"])


def test_a_5_mb_body_with_content_length_gets_a_readable_413(server: Any) -> None:
    body = b" " * FIVE_MB
    for _ in range(5):  # the reset depended on timing: every try must read the answer
        r = httpx2.post(server.url, content=body, headers=_headers(), timeout=20)
        assert r.status_code == 413 and "declared 5242880" in _refused(r.content), r.text
    # urllib (it sends "Connection: close": the server closes after the answer, so an unread body resets it)
    request = urllib.request.Request(server.url, data=body, headers=_headers(), method="POST")
    for _ in range(3):
        try:
            urllib.request.urlopen(request, timeout=20)
            raise AssertionError("a 5 MB body was accepted")
        except urllib.error.HTTPError as refused:
            assert refused.code == 413 and "declared" in _refused(refused.read())
    # the standard library's client too, on one connection it then reuses
    url = urlsplit(server.url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
    try:
        conn.request("POST", url.path, body=body, headers=_headers())
        answer = conn.getresponse()
        assert answer.status == 413 and "declared" in _refused(answer.read())

        def chunks() -> Iterator[bytes]:
            for _ in range(5):
                yield b" " * (1024 * 1024)

        r = httpx2.post(server.url, content=chunks(), headers=_headers(), timeout=20)
        assert r.status_code == 413 and "streamed" in _refused(r.content)
    finally:
        conn.close()
    ok = httpx2.post(server.url, content=b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}', headers={
        **_headers(), "Accept": "application/json, text/event-stream"}, timeout=10)  # fmt: skip
    assert ok.status_code == 200, ok.text


def test_a_5_mb_body_uploaded_slowly_still_gets_the_413(server: Any) -> None:
    """A client on a slow link: headers first, then the body in 256 KiB pieces, then it reads."""
    url = urlsplit(server.url)
    body = b" " * FIVE_MB
    head = (f"POST {url.path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\n"
            f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")  # fmt: skip
    with socket.create_connection((url.hostname, url.port), timeout=20) as sock:
        sock.sendall(head.encode())
        piece = 256 * 1024
        for at in range(0, len(body), piece):
            time.sleep(0.02)
            sock.sendall(body[at : at + piece])  # before the fix: BrokenPipe / ConnectionReset here
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < 20:
            chunk = sock.recv(65536)
            assert chunk, f"closed before the answer: {answer!r}"
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"declared 5242880" in answer


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``sock`` (EOF or reset), or None if it stayed open."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def test_connections_that_never_finish_their_headers_are_closed(server: Any) -> None:
    url = urlsplit(server.url)
    host = f"{url.hostname}:{url.port}"
    slow = []
    for i in range(20):
        sock = socket.create_connection((url.hostname, url.port), timeout=5)
        partial = f"POST {url.path} HTTP/1.1\r\nHost: {host}\r\nX-Slow-{i}: 1\r\n" if i % 2 else ""
        sock.sendall(partial.encode())  # half the headers (or nothing at all), then silence
        slow.append(sock)
    started = time.monotonic()
    try:
        waited = [_closed_within(sock, max(0.1, 12.0 - (time.monotonic() - started))) for sock in slow]
        assert all(w is not None for w in waited), f"{waited.count(None)} of 20 slow connections still open"
        assert time.monotonic() - started < 9.0, f"closed only after {time.monotonic() - started:.1f} s"
        # a keep-alive connection that starts a second request and stalls in its headers is closed too
        with socket.create_connection((url.hostname, url.port), timeout=5) as sock:
            ping = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
            head = (f"POST {url.path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {TOKEN}\r\n"
                    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    f"Content-Length: {len(ping)}\r\n\r\n")  # fmt: skip
            sock.sendall(head.encode() + ping)
            first = sock.recv(65536)
            assert first.startswith(b"HTTP/1.1 200"), first[:200]
            sock.sendall(f"POST {url.path} HTTP/1.1\r\nHost: {host}\r\n".encode())
            assert _closed_within(sock, 10.0) is not None, "the stalled second request kept the connection"
        # and the server still answers everyone else
        ok = httpx2.post(server.url, content=b'{"jsonrpc": "2.0", "id": 2, "method": "ping"}', headers={
            **_headers(), "Accept": "application/json, text/event-stream"}, timeout=10)  # fmt: skip
        assert ok.status_code == 200
    finally:
        for sock in slow:
            sock.close()
