"""The Programmer's grounded path: a request becomes a mod through the game's own knowledge of what a mod can
do, and the player is told plainly what it did.

1. The rules reader (``recipes.reader``) reads the plain phrasings; a request a mod cannot serve gets
   "I can't, because ..." at once.
2. The model fills what the reader left open through a schema-constrained reply (``recipes.slots``); with no
   model (the offline stub) the Programmer says it cannot write that mod offline.
3. The mod is rendered from the recipe (valid Lua by construction). Only when no recipe fits does the model
   write free-form Lua, as one JSON string (one block, by grammar) with a token limit that fits a mod.
4. The mod runs in a headless trial (``trial``: the real sandbox, 60 s of play or more for slow timers); a
   fault in free-form code goes back to the model with the error (the self-heal loop), and each recipe's
   expected behaviour is checked. What passes is installed as a user mod (``install``), which F7 lists.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from loguru import logger
from pydantic import BaseModel, ConfigDict

from coreai.errors import CoreAIError, LlmError
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest
from coreai.lua.programmer import LuaExecutionEvent, LuaExecutionFailed, LuaExecutionSucceeded
from coreai.lua.recipes.catalogue import say
from coreai.lua.recipes.model import Facts, Recipe, Rule
from coreai.lua.recipes.reader import Reading, read
from coreai.lua.recipes.render import manifest, mod_files, mod_name
from coreai.lua.recipes.slots import fill
from coreai.lua.results import ExecResult

Path_ = Literal["reader", "model", "freeform", "cant", "offline"]
FREEFORM_MAX_TOKENS = 360  # a small mod (about 25 lines of Lua)
FREEFORM_REPAIRS = 2
CODE_SCHEMA = {
    "type": "object",
    "properties": {"lua": {"type": "string", "maxLength": 1200}},
    "required": ["lua"],
    "additionalProperties": False,
}


class TrialVerdict(BaseModel):
    """What a headless trial showed: ``ran`` (loaded and played without a fault) and ``ok`` (also did what
    its recipe says); ``summary`` is said to the player."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    ran: bool
    fault: str | None
    summary: str
    checks: tuple[str, ...] = ()
    seconds: float = 60.0  # game seconds the trial played


Trial = Callable[[dict[str, str], Recipe | None], TrialVerdict]
Install = Callable[[dict[str, str]], str]  # installs the files as a user mod; returns its name (or raises)


@dataclass(frozen=True)
class GroundedOutcome:
    ok: bool
    path: Path_
    message: str  # what the player reads
    trace_id: str
    recipe: Recipe | None = None
    files: dict[str, str] = field(default_factory=dict)
    mod: str | None = None
    verdict: TrialVerdict | None = None
    seconds: float = 0.0
    attempts: int = 0
    note: str = ""  # how the recipe was found (the model's choice, the reader's notes)
    events: tuple[LuaExecutionEvent, ...] = ()


def _cant(why: str) -> str:
    return f"I can't write that mod, because {why}."


def run_grounded_task(
    task: str,
    *,
    facts: Facts,
    llm: LlmClient | None,
    trial: Trial,
    install: Install,
    taken: Callable[[], set[str]] = set,
    subscribers: Sequence[Callable[[LuaExecutionEvent], None]] = (),
    trace_id: str | None = None,
    timeout_s: float = 20.0,
) -> GroundedOutcome:
    """Turn ``task`` into a working user mod, or say why not. Never raises. ``llm`` None: no model (the
    offline stub), so only what the reader covers is written."""
    trace = trace_id or uuid.uuid4().hex[:12]
    log = logger.bind(feature="lua", trace_id=trace)
    started = time.perf_counter()
    events: list[LuaExecutionEvent] = []

    def emit(event: LuaExecutionEvent) -> None:
        events.append(event)
        for sub in subscribers:
            try:
                sub(event)
            except Exception:
                log.exception("LuaExecution subscriber failed")

    def done(ok: bool, path: Path_, message: str, **kw: Any) -> GroundedOutcome:
        out = GroundedOutcome(
            ok, path, message, trace, seconds=time.perf_counter() - started, events=tuple(events), **kw
        )
        log.info("programmer ({}): {} in {:.2f}s: {}", path, "ok" if ok else "no mod", out.seconds, message)
        return out

    reading: Reading = read(task, facts)
    if reading.cant is not None:
        return done(False, "cant", _cant(reading.cant))
    recipe, note = reading.recipe, "; ".join(reading.notes)
    path: Path_ = "reader"
    if recipe is None:
        if llm is None:
            words = {"action": "what the mod should do", "prefab": "which enemy", "param": "which setting",
                     "value": "what value", "report": "what to show"}  # fmt: skip
            gap = (
                " or ".join(dict.fromkeys(words.get(s, s) for m in reading.missing for s in m))
                or "what to do"
            )
            return done(False, "offline", (
                f"I can't write that mod offline, because no recipe of mine tells me {gap} and the "
                "Programmer "
                'has no model here. Route it to one in settings ([llm.backends] Programmer = "local").'
            ))  # fmt: skip
        recipe, note = fill(reading, task, llm, facts, trace_id=trace, timeout_s=timeout_s)
        path = "model"
    name = mod_name(task, taken())
    if recipe is None:
        if llm is None:  # pragma: no cover - handled above
            return done(False, "offline", _cant("no recipe fits it"))
        return _freeform(task, name, facts, llm, trial, install, emit, done, note, timeout_s)
    files = mod_files(recipe, facts, name)
    verdict = trial(files, recipe)
    code = files["main.lua"]
    if not verdict.ran:
        emit(LuaExecutionFailed(trace, task, 1, code, verdict.fault or "fault", "runtime", False))
        return done(False, path, f"The mod I wrote for that failed its test run: {verdict.summary}",
                    recipe=recipe, files=files, verdict=verdict, attempts=1, note=note)  # fmt: skip
    if not verdict.ok:
        emit(LuaExecutionFailed(trace, task, 1, code, verdict.summary, "behaviour", False))
        return done(False, path, (
            f"I wrote a mod ({say(recipe, facts)}), but in a {verdict.seconds:g} s test run it did not do "
            "that: "
            f"{verdict.summary}. I did not install it."
        ), recipe=recipe, files=files, verdict=verdict, attempts=1, note=note)  # fmt: skip
    return _install(task, name, files, recipe, verdict, path, facts, install, emit, done, trace, note)


def _install(task: str, name: str, files: dict[str, str], recipe: Recipe | None, verdict: TrialVerdict,
             path: Path_, facts: Facts, install: Install, emit: Callable[[LuaExecutionEvent], None],
             done: Callable[..., GroundedOutcome], trace: str, note: str,
             attempts: int = 1) -> GroundedOutcome:  # fmt: skip
    try:
        installed = install(files)
    except CoreAIError as exc:
        return done(False, path, f"The mod worked in its test run but could not be installed: {exc}",
                    recipe=recipe, files=files, verdict=verdict, attempts=attempts, note=note)  # fmt: skip
    emit(
        LuaExecutionSucceeded(
            trace, task, attempts, files["main.lua"], ExecResult(ok=True, mod=installed, trace_id=trace), None
        )
    )
    what = say(recipe, facts) if recipe is not None else "the Lua I wrote for it"
    message = (
        f"Mod '{installed}' is on (F7 lists it; turn it off or revert it there): {what}. "
        f"Checked in a {verdict.seconds:g} s test run: {verdict.summary}."
    )
    return done(True, path, message, recipe=recipe, files=files, mod=installed, verdict=verdict,
                attempts=attempts, note=note)  # fmt: skip


def _freeform_request(
    task: str, messages: tuple[ChatMessage, ...], trace: str, timeout_s: float
) -> LlmRequest:
    return LlmRequest(
        messages=messages,
        role="Programmer",
        trace_id=trace,
        response_schema=CODE_SCHEMA,
        max_tokens=FREEFORM_MAX_TOKENS,
        temperature=0.1,
        timeout_s=timeout_s,
        tool_choice="none",
    )


_FREEFORM_SYSTEM = (
    "You write a small Lua mod for the game's Mod API v1: coreai_world_spawn(prefab, x, y, count), "
    "game.state() (player.x, player.y, player.hp, wave, score, enemies_alive), game.set(param, value), "
    "report(text), every(seconds, fn), after(seconds, fn), storage.get/set, and hooks on_load(), "
    "on_wave_start(wave), on_enemy_killed(e), on_player_damaged(amount). Prefabs: {prefabs}. "
    'Reply as JSON: {{"lua": "<the whole mod>"}}.'
)


def _freeform(task: str, name: str, facts: Facts, llm: LlmClient, trial: Trial, install: Install,
              emit: Callable[[LuaExecutionEvent], None], done: Callable[..., GroundedOutcome], note: str,
              timeout_s: float) -> GroundedOutcome:  # fmt: skip
    """The last resort: free-form Lua, one JSON string, repaired from the trial's error."""
    trace = uuid.uuid4().hex[:12]
    system = ChatMessage("system", _FREEFORM_SYSTEM.format(prefabs=", ".join(facts.prefabs)))
    messages: tuple[ChatMessage, ...] = (system, ChatMessage("user", f"Task: {task}"))
    recipe_stub = Recipe(request=task[:500], rules=(Rule(trigger="load", action="report"),))
    last = "no code"
    for attempt in range(1, FREEFORM_REPAIRS + 2):
        retry = attempt <= FREEFORM_REPAIRS
        try:
            reply = llm.complete(_freeform_request(task, messages, trace, timeout_s)).content
            code = str(json.loads(reply).get("lua", "")).strip()
        except LlmError as exc:
            emit(LuaExecutionFailed(trace, task, attempt, "", str(exc), "llm", False))
            return done(False, "freeform", _cant(f"the model failed ({exc})"), attempts=attempt, note=note)
        except (json.JSONDecodeError, AttributeError, TypeError):
            code = ""
        if not code:
            last = "the reply had no Lua"
            emit(LuaExecutionFailed(trace, task, attempt, "", last, "no_code", retry))
            continue
        files = {"mod.toml": manifest(name, recipe_stub, facts), "main.lua": code + "\n"}
        verdict = trial(files, None)
        if verdict.ran:
            return _install(task, name, files, None, verdict, "freeform", facts, install, emit, done, trace,
                            note, attempt)  # fmt: skip
        last = verdict.fault or verdict.summary
        emit(LuaExecutionFailed(trace, task, attempt, code, last, "runtime", retry))
        messages = (
            system,
            ChatMessage("user", f"Task: {task}"),
            ChatMessage("assistant", json.dumps({"lua": code})),
            ChatMessage(
                "user", f"lua_error: {last}\nFix that exact problem; reply with the whole mod as JSON."
            ),
        )
    return done(False, "freeform", (
        "No mod recipe covers that, and the Lua the model wrote for it did not run "
        f"(last error: {last[:160]}). I did not install anything."
    ), attempts=FREEFORM_REPAIRS + 1, note=note)  # fmt: skip
