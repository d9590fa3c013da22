"""The director's request fits the bundled model's window with 25% headroom in the worst game state (every
prefab, every event a mod could register, a full memory, a long run), counted with the model's own tokenizer
and chat template; a window too small is met by trimming (oldest note first, then the world state), never
by failing; and an overflow the backend does meet has its own error code."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from coreai.errors import ContextOverflow, LlmErrorCode
from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.types import ChatMessage, LlmRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings
from game.ai.director_agent import MAX_TOKENS, AgentPlanSource, PlanCapture, install_director_tools
from game.ai.director_prompt import (
    ANNOUNCER_CHARS,
    HEADROOM,
    MAX_EVENTS_OFFERED,
    NOTE_CHARS,
    REASON_CHARS,
)
from game.director.events import EventRegistry
from game.director.memory import MAX_NOTES, NOTE_MAX
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.source import DirectorSituation, PlanRequest
from game.director.telemetry import GameSessionSnapshot
from game.sim.prefabs import PrefabRegistry

WORDS = [
    "spitters",
    "flank",
    "wave",
    "elite",
    "boss",
    "runner",
    "tank",
    "grunt",
    "pickups",
    "recovery",
    "pressure",
    "dodges",
    "corner",
]


def words(n: int, seed: int) -> str:
    out = " ".join(WORDS[(seed + i * 7) % len(WORDS)] + str(i) for i in range(200))
    return out[:n]


def worst_events() -> list[str]:
    """The built-in events, then as many 32-character mod events as anyone would register."""
    return [*EventRegistry().names(), *(f"mod_event_{i:02d}_" + "x" * 18 for i in range(60))]


def worst_situation(prefabs: list[str], events: list[str], n_notes: int = MAX_NOTES) -> DirectorSituation:
    snap = GameSessionSnapshot(
        time=35999.9, tick=2159994, wave=999, wave_time_left=59.9, level=250, hp_fraction=0.123,
        max_hp=99999.0, deaths=999, seconds_since_death=12.3, damage_5s=12.34, damage_15s=56.78,
        damage_60s=123.45, kills_per_min=9999.9, accuracy=0.987, enemies_alive=9999, enemies_near=999,
        elites_alive=999, boss_alive=True, seconds_since_hit=0.1, upgrades=999, player_dps=99999.9,
    )  # fmt: skip
    knobs = DirectorKnobs(
        pressure=2.987, mix={p: 4.75 for p in prefabs}, elite_chance=0.3456, pickup_rate=2.987
    )
    return DirectorSituation(
        snapshot=snap,
        intensity=0.9876,
        pacing=PacingState.SUSTAIN_PEAK,
        pacing_s=123.45,
        knobs=knobs,
        memory=[words(NOTE_MAX, i) for i in range(n_notes)],
        prefabs=prefabs,
        events=events,
    )


@pytest.fixture(scope="module")
def source(model_path: object) -> Iterator[AgentPlanSource]:
    client = LocalLlmClient(LocalLlmConfig(n_ctx=4096))  # the shipped default window
    runtime = CoreAiRuntime(Settings(), backends={"local": client})
    capture = PlanCapture()
    install_director_tools(runtime, PrefabRegistry.load().regular, worst_events(), capture)
    yield AgentPlanSource(runtime, "local", capture)
    runtime.close(wait=False)
    client.close()


def test_the_worst_case_request_fits_with_headroom(source: AgentPlanSource) -> None:
    prefabs = list(PrefabRegistry.load().regular)
    req = PlanRequest(seq=1, trace_id="fit-1", tick=0, situation=worst_situation(prefabs, worst_events()))
    fit = source.fit(req)
    assert fit.n_ctx == 4096
    assert fit.total_tokens <= (1 - HEADROOM) * 4096, fit
    assert not fit.trimmed, "the default window holds even the worst case without trimming"
    assert all(note[:40] in fit.instructions for note in req.situation.memory)
    assert fit.line() == f"prompt {fit.prefix_tokens + fit.tail_tokens} tok / 4096"
    schema = source.runtime.orchestrator.tools["set_director_plan"].schema()
    assert len(schema["properties"]["event"]["enum"]) == MAX_EVENTS_OFFERED + 1  # + null


def test_the_longest_plan_the_grammar_allows_fits_max_tokens(source: AgentPlanSource) -> None:
    counter = source._client().tokens
    prefabs = list(PrefabRegistry.load().regular)
    longest = {
        "pressure": "ease_off",
        "reason": words(REASON_CHARS, 1),
        "mix": {p: 0 for p in prefabs[:8]},
        "elite_chance": 0.35,
        "pickup_rate": 0.25,
        "event": worst_events()[MAX_EVENTS_OFFERED - 1],
        "announcer": words(ANNOUNCER_CHARS, 2),
        "note": words(NOTE_CHARS, 3),
    }
    assert counter.count(json.dumps(longest, indent=1)) < MAX_TOKENS


def test_a_small_window_trims_oldest_notes_first_then_the_world_state(source: AgentPlanSource) -> None:
    prefabs = list(PrefabRegistry.load().regular)
    req = PlanRequest(seq=1, trace_id="fit-2", tick=0, situation=worst_situation(prefabs, worst_events()))
    full = source.fit(req)
    n_ctx = int((full.total_tokens - 60) / (1 - HEADROOM))  # a window a few notes too small
    client = source._client()
    client.config = client.config.model_copy(update={"n_ctx": n_ctx})
    try:
        fit = source.fit(req)
        assert 0 < fit.notes_dropped < MAX_NOTES and fit.level == 0 and fit.total_tokens <= 0.75 * n_ctx
        kept = req.situation.memory[fit.notes_dropped :]
        assert req.situation.memory[0][:40] not in fit.instructions and kept[0][:40] in fit.instructions
        client.config = client.config.model_copy(update={"n_ctx": full.prefix_tokens + 400})
        tight = source.fit(req)  # no notes left, then the world state gives way
        assert tight.notes_dropped == MAX_NOTES and tight.level >= 1
        client.config = client.config.model_copy(update={"n_ctx": 256})
        hopeless = source.fit(req)  # never raises: the minimal summary goes out
        assert hopeless.level == 2 and "intensity" in hopeless.instructions
    finally:
        client.config = client.config.model_copy(update={"n_ctx": 4096})


@pytest.mark.real_llm
def test_a_context_overflow_has_its_own_code(model_path: object) -> None:
    client = LocalLlmClient(LocalLlmConfig(n_ctx=256, n_threads=2))
    try:
        client.wait_ready(60)
        with pytest.raises(ContextOverflow) as info:
            client.complete(LlmRequest((ChatMessage("user", "word " * 400),), max_tokens=8))
        assert info.value.code is LlmErrorCode.CONTEXT_OVERFLOW and info.value.n_ctx == 256
        assert info.value.prompt_tokens > 256 and "context_overflow" in str(info.value)
    finally:
        client.close()
