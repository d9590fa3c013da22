"""Ask an agent role one question, headless; the reply streams to stdout (--json ends with a JSON line).

``python -m game ask <Role> "<text>" [--backend B] [--json]`` starts a headless session as the game has it
(a world, the mods, the director, the Merchant's shelf, open), sends the text to the role, streams the
visible reply to stdout as it arrives, and with ``--json`` ends with one JSON line ``{"role", "backend",
"reply", "tools", "latency_s", "trace_id"}`` (plus ``error`` when the turn failed). Exit status: 0
answered, 1 failed or timed out, 2 bad usage or backend unavailable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from loguru import logger

from coreai.llm.registry import BACKENDS
from coreai.settings import ROLE_PATTERN, Settings

log = logger.bind(feature="game", trace_id="ask")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="arena ask", description="Ask an agent role one question, headless.")
    p.add_argument("role", help="Chat, Merchant, Creator, Analyzer, Programmer (or any role with a prompt)")
    p.add_argument("text", help="what to say")
    names = ", ".join(BACKENDS.names())
    p.add_argument("--backend", default=None, help=f"route the role to this backend: {names}")
    p.add_argument("--json", dest="as_json", action="store_true", help="end with one JSON line")
    p.add_argument("--seed", type=int, default=1, help="the world's seed")
    p.add_argument("--coins", type=int, default=0, help="coins in the player's purse (for the Merchant)")
    p.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
    return p


def _settings(role: str, backend: str | None) -> Settings:
    from coreai.errors import SettingsError
    from coreai.logging import configure_logging
    from coreai.settings import load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:
        log.warning("settings file rejected, using defaults: {}", exc)
        settings = Settings()
    configure_logging(settings.logging.model_copy(update={"level": "WARNING"}))
    if backend is None:
        return settings
    llm = settings.llm.model_copy(update={"backends": {**settings.llm.backends, role: backend}})
    return settings.model_copy(update={"llm": llm})


def _emit(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    import re

    args = build_parser().parse_args(argv)
    if not re.fullmatch(ROLE_PATTERN, args.role):
        sys.stderr.write(f"not a role name: {args.role!r}\n")
        return 2
    from game.ai.session import AiSession
    from game.options import LaunchOptions

    settings = _settings(args.role, args.backend)
    session = AiSession(LaunchOptions(headless=True, seed=args.seed), settings=settings, configure_logs=False)
    try:
        asked = settings.llm.backends.get(args.role, settings.llm.default_backend)
        got = session.runtime.router.backend_for(args.role)
        if got != asked:
            why = session.backends.reasons.get(asked, "not configured")
            sys.stderr.write(f"backend '{asked}' is unavailable for {args.role}: {why}\n")
            return 2
        world = session.world_factory(args.seed)
        session.on_run_start(world)
        if session.shop is not None:
            session.shop.shop.open = True  # a visit to the merchant's stall
            session.shop.shop.purse.balance = max(0, args.coins)
        limit = args.timeout or 2 * settings.llm.timeout_s + 10.0
        from game.talk.start import start_turn

        turn = start_turn(session, args.role, args.text, on_piece=_emit)
        deadline = time.monotonic() + limit
        while turn.busy and time.monotonic() < deadline:
            session.on_frame(world, 0.0)  # the agent's tool calls are applied on this (main) thread
            time.sleep(0.005)
        if turn.busy:
            turn.stop()
            turn.wait(2.0)
        return _finish(turn, got, args.as_json, limit)
    finally:
        session.close()


def _finish(turn: Any, backend: str, as_json: bool, limit: float) -> int:
    streamed = turn.streamed()
    reply = turn.text()
    if turn.state == "done" and reply != streamed:
        _emit(reply[len(streamed) :] if reply.startswith(streamed) else ("\n" if streamed else "") + reply)
    _emit("\n")
    ok = turn.state == "done"
    if not ok:
        why = turn.error or f"no reply within {limit:g}s"
        sys.stderr.write(f"{turn.role} {turn.state}: {why}\n")
    if as_json:
        out: dict[str, Any] = {
            "role": turn.role,
            "backend": turn.result.backend if turn.result is not None else backend,
            "reply": reply,
            "tools": turn.tools_called(),
            "latency_s": round(turn.ended_s if turn.ended_s is not None else 0.0, 3),
            "trace_id": turn.trace_id,
        }
        if getattr(turn, "note", ""):
            out["note"] = turn.note  # the talk guard replaced the model's reply
            out["model_reply"] = turn.model_text
        if turn.first_piece_s is not None:
            out["first_piece_s"] = round(turn.first_piece_s, 3)
        if not ok:
            out["error"] = turn.error or f"{turn.state}: no reply within {limit:g}s"
        _emit(json.dumps(out, ensure_ascii=False) + "\n")
    return 0 if ok else 1
