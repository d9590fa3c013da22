"""Glue for tests with the official TypeScript MCP SDK (``tests/mcp/ts_client``: an exact version in
package.json and package-lock.json), a real 2025-11-25 client. ``ts_client_dir()`` installs it with
``npm ci`` the first time (the npm registry is a package registry, like PyPI) and skips the test, saying
why, where Node.js or npm is missing. ``TsClient`` drives ``driver.mjs``: one JSON command a line in, one
JSON answer a line out."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from play_glue import TOKEN

HERE = Path(__file__).parent / "ts_client"
SDK = "@modelcontextprotocol/sdk"


def _pinned() -> str:
    return str(json.loads((HERE / "package.json").read_text())["dependencies"][SDK])


def _installed() -> str | None:
    manifest = HERE / "node_modules" / SDK / "package.json"
    if not manifest.is_file():
        return None
    return str(json.loads(manifest.read_text())["version"])


def ts_client_dir() -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("needs Node.js and npm: the official TypeScript MCP SDK is the 2025-11-25 client")
    if _installed() != _pinned():
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"npm ci failed in {HERE}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    assert _installed() == _pinned()
    return HERE


class TsClient:
    def __init__(self, url: str, token: str = TOKEN) -> None:
        folder = ts_client_dir()
        node = shutil.which("node")
        assert node is not None
        self.proc = subprocess.Popen(
            [node, "driver.mjs", url, token],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "NODE_NO_WARNINGS": "1"},
        )
        self._sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        ready = self._read(30.0)
        assert ready.get("ok"), ready

    def _read(self, timeout_s: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the TypeScript client did not answer within {timeout_s:g}s")
            if self._sel.select(left):
                line = self.proc.stdout.readline()
                if not line:
                    err = self.proc.stderr.read() if self.proc.stderr else ""
                    raise RuntimeError(f"the TypeScript client exited: {err[-2000:]}")
                data: dict[str, Any] = json.loads(line)
                return data

    def send(self, op: str, timeout_s: float = 120.0, **fields: Any) -> dict[str, Any]:
        """One command; its answer: ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": ...}``."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.proc.stdin.flush()
        return self._read(timeout_s)

    def ok(self, op: str, **fields: Any) -> Any:
        answer = self.send(op, **fields)
        assert answer["ok"], f"{op} {fields} failed: {answer}"
        return answer["result"]

    def call(self, tool: str, **args: Any) -> dict[str, Any]:
        """A tool call that must succeed; its JSON answer."""
        result = self.ok("call", tool=tool, args=args)
        assert not result.get("isError"), f"{tool} {args}: {result['content'][0]['text']}"
        data: dict[str, Any] = json.loads(result["content"][0]["text"])
        return data

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(TimeoutError, RuntimeError, OSError):  # it exits without answering
                self.send("close", timeout_s=5.0)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._sel.close()

    def __enter__(self) -> TsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
