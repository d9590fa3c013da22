"""A 2025-11-25 client plays over MCP (issue 35): the official TypeScript SDK (pinned in
``tests/mcp/ts_client``) against the real ``python -m game --headless --mcp --frozen`` (and a real window
under Xvfb). A step it gives up on (its own request timeout sends ``notifications/cancelled``) stops
within 0.5 s of wall time and the next step is accepted; it gets a session and ``resources.subscribe:
true``, subscribes to ``arena://runs/current`` and hears ``notifications/resources/updated`` while it steps
(and none after unsubscribing, though a fork then changes the run); unknown resources are -32002 and
unknown prompts -32602 with what is available, with no ERROR or traceback in the game's log. Skipped where
Node.js is missing."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from play_glue import game_process
from ts_glue import TsClient, ts_client_dir

pytestmark = pytest.mark.timeout(300)
CANCEL_WITHIN_S = 0.5
NEVER = "game.state().tick < 0"  # a step_until that only a cancel (or its limits) can end


@pytest.fixture(scope="module", autouse=True)
def _node() -> None:
    ts_client_dir()  # skips without Node.js; installs the pinned SDK once


def _session_and_subscriptions(c: TsClient) -> None:
    info = c.ok("info")
    assert info["protocol"] == "2025-11-25" and info["session"]
    assert info["capabilities"]["resources"]["subscribe"] is True

    assert c.ok("subscribe", uri="arena://runs/current") == {}
    c.call("player_input", action="press", key="shoot")
    heard = []
    for _ in range(6):  # the director decides every 10 s of game time, and at once on a death
        state = c.call("sim_control", action="step", ticks=300)
        time.sleep(0.5)  # updates are coalesced over 0.2 s
        heard += c.ok("updates")["updates"]
        if len(heard) >= 2 or state["phase"] != "playing":
            break
    assert len(heard) >= 2 and {u["uri"] for u in heard} == {"arena://runs/current"}, heard

    assert c.ok("unsubscribe", uri="arena://runs/current") == {}
    run = json.loads(c.ok("read", uri="arena://runs")["contents"][0]["text"])["current"]
    forked = c.call("sim_control", action="fork", run=run, tick=10)  # a new run: the resource changes
    assert forked["tick"] == 10 and forked["identical"]
    time.sleep(0.5)
    assert c.ok("updates")["updates"] == []  # ...but this client unsubscribed


def _cancel_mid_step(c: TsClient) -> None:
    before = c.call("sim_control", action="state")
    assert before["phase"] == "playing" and not before["stepping"]
    gave_up = c.send(
        "call", tool="sim_control", args={"action": "step_until", "until_lua": NEVER}, timeout_ms=300
    )
    cancelled_at = time.monotonic()
    assert not gave_up["ok"] and gave_up["error"]["code"] == -32001, gave_up  # the SDK's own timeout
    while True:
        state = c.call("sim_control", action="state")
        if not state["stepping"]:
            break
        assert time.monotonic() - cancelled_at < 5.0, "the cancelled step kept running"
    stopped_in = time.monotonic() - cancelled_at
    assert stopped_in <= CANCEL_WITHIN_S, f"stopped {stopped_in:.3f}s after the cancel"
    assert before["tick"] < state["tick"] < before["tick"] + 3600  # it ran, and stopped mid-way
    time.sleep(0.3)
    assert c.call("sim_control", action="state")["tick"] == state["tick"]  # frozen again
    after = c.call("sim_control", action="step", ticks=5)  # the next step is accepted
    assert after["tick"] == state["tick"] + 5 and after["stopped"] == "ticks"


def _errors(c: TsClient) -> None:
    missing = c.send("read", uri="arena://nothing/here")
    assert missing["error"]["code"] == -32002 and "served: arena://runs" in missing["error"]["message"]
    skill = c.send("read", uri="arena://skills/nope")
    assert skill["error"]["code"] == -32002
    assert "unknown skill 'nope'; available: director, lua_modding, mcp" in skill["error"]["message"]
    run = c.send("read", uri="arena://runs/no-such-run")
    assert run["error"]["code"] == -32002 and "unknown run" in run["error"]["message"]
    sub = c.send("subscribe", uri="arena://nothing")
    assert sub["error"]["code"] == -32002
    prompt = c.send("prompt", name="nope")
    assert prompt["error"]["code"] == -32602
    assert "available: playtest_wave, repair_mod, tune_director" in prompt["error"]["message"]
    bad = c.send("prompt", name="repair_mod", args={"wave": "1"})
    assert bad["error"]["code"] == -32602
    assert "unknown argument(s) wave; its arguments: mod" in bad["error"]["message"]
    assert c.ok("prompt", name="playtest_wave", args={"wave": "1"})["messages"]


def _log_is_clean(saves: Path) -> None:
    """No ERROR and no traceback for the client's mistakes, on the console or in the game's log file."""
    for path in [saves / "game.err", *sorted((saves / "logs").glob("*.log"))]:
        log = path.read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in log and "| ERROR" not in log, f"{path.name}: {log[-3000:]}"
    assert "unknown skill 'nope'" in (saves / "logs" / "coreai.log").read_text(encoding="utf-8")


def test_a_2025_client_headless(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    with game_process(saves, "--headless", "--seed", "11") as url, TsClient(url) as c:
        _cancel_mid_step(c)
        _session_and_subscriptions(c)
        _errors(c)
    _log_is_clean(saves)


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb for a real window")
def test_a_2025_client_in_a_window(tmp_path: Path) -> None:
    from test_play_window import xvfb

    saves = tmp_path / "saves"
    with (
        xvfb() as display,
        game_process(
            saves, "--seed", "11", "--mute", env={"DISPLAY": display}, drop=("ARCADE_HEADLESS",)
        ) as url,
        TsClient(url) as c,
    ):
        _cancel_mid_step(c)
        _session_and_subscriptions(c)
        _errors(c)
    assert os.environ.get("ARCADE_HEADLESS") == "1"
