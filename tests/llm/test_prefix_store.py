"""Saved prompt prefixes (``coreai.llm.local_state``) on the real bundled model: a role's evaluated prefix is
written to ``<saves>/cache/llm`` once, a new client (the next session) starts its first request of that role
warm, and a file llama.cpp refuses is quarantined and replaced, never trusted."""

from __future__ import annotations

from pathlib import Path

import pytest

from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.types import ChatMessage, LlmRequest

DIRECTOR = "You direct an arena game. " + "Keep the fight tense but fair. " * 40


def ask(user: str, system: str = DIRECTOR) -> LlmRequest:
    return LlmRequest(
        (ChatMessage("system", system), ChatMessage("user", user)), role="Director", max_tokens=2
    )


def session(*requests: LlmRequest, **config: object) -> list[tuple[int, int]]:
    """One client (a game session): (prompt, cached) tokens of each request."""
    client = LocalLlmClient(LocalLlmConfig(n_ctx=1024, n_threads=1, **config))
    try:
        client.wait_ready(60)
        out = []
        for r in requests:
            client.complete(r)
            out.append((client.stats.last_prompt_tokens, client.stats.last_cached_tokens))
        return out
    finally:
        client.close()


def files(saves: Path, pattern: str = "Director-*.kv") -> list[Path]:
    return sorted((saves / "cache" / "llm").glob(pattern))


@pytest.mark.real_llm
@pytest.mark.timeout(240)
def test_the_next_session_starts_warm_from_the_saved_prefix(saves_dir: Path, model_path: Path) -> None:
    [(prompt, cached)] = session(ask("Wave 1: calm."))
    assert cached == 0 and prompt > 250, "a first session evaluates the whole prompt"
    (saved,) = files(saves_dir)
    assert saved.stat().st_size > 1_000_000, "the prefix's KV state is on disk"
    [(prompt2, cached2)] = session(ask("Wave 7: chaos."))
    assert cached2 > 250 and prompt2 - cached2 < 40, "only the new user turn was evaluated"
    assert files(saves_dir) == [saved], "nothing new to save"
    [(_, cached3)] = session(ask("Wave 1: calm.", system=DIRECTOR + " Be brief."))
    assert cached3 == 0, "another prefix does not match the saved one"
    assert len(files(saves_dir)) == 1 and files(saves_dir) != [saved], "one file per role: the newest"


@pytest.mark.real_llm
@pytest.mark.timeout(240)
def test_a_corrupt_prefix_file_is_quarantined_and_replaced(saves_dir: Path, model_path: Path) -> None:
    session(ask("Wave 1: calm."))
    (saved,) = files(saves_dir)
    saved.write_bytes(saved.read_bytes()[:200_000])  # a torn copy: the header is right, the data is not
    [(_, cached), (_, cached_after)] = session(ask("Wave 2."), ask("Wave 3."))
    assert cached == 0, "the torn state was not used"
    assert cached_after > 250, "the session still warmed its own context"
    assert len(files(saves_dir, "Director-*.kv.corrupt-*")) == 1, "moved aside, not deleted"
    (fresh,) = files(saves_dir)
    assert fresh.stat().st_size > 1_000_000, "a good copy replaced it"
    [(_, cached_next)] = session(ask("Wave 4."))
    assert cached_next > 250


@pytest.mark.real_llm
@pytest.mark.timeout(120)
def test_prefix_store_off_writes_nothing(saves_dir: Path, model_path: Path) -> None:
    session(ask("Wave 1: calm."), prefix_store_mb=0)
    assert not files(saves_dir, "*")
