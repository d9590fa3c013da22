"""Agent memory: atomic persistence per role, corrupt files quarantined, deterministic history compaction."""

from __future__ import annotations

import json
from pathlib import Path

from coreai.history import HistoryEntry, compact_history, history_messages
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.memory import MemoryStore
from coreai.orchestrator import Orchestrator
from coreai.requests import AiTaskRequest
from coreai.settings import MemorySettings
from coreai.tools.memory_tool import memory_tool


def test_memory_persists_across_store_instances(saves_dir: Path):
    first = MemoryStore()
    first.write("Creator", "player dodges well")
    first.append("Creator", "struggles with spitters")
    first.append_turn("Merchant", "hello", "welcome, traveller")
    path = saves_dir / "agent_memory" / "Creator.json"
    assert path.is_file() and not list(path.parent.glob(".*.tmp"))  # written atomically, no leftovers
    second = MemoryStore()
    assert second.memory("Creator") == "player dodges well\nstruggles with spitters"
    assert second.history("Merchant")[1] == [
        HistoryEntry(role="user", content="hello"),
        HistoryEntry(role="assistant", content="welcome, traveller"),
    ]
    second.clear("Creator")
    assert MemoryStore().memory("Creator") == ""


def test_corrupt_memory_file_is_quarantined_and_the_role_starts_clean(saves_dir: Path):
    folder = saves_dir / "agent_memory"
    folder.mkdir(parents=True)
    (folder / "Creator.json").write_text(
        '{"version": 1, "role": "Creator", "memory": "half', encoding="utf-8"
    )
    store = MemoryStore()
    assert store.memory("Creator") == ""
    quarantined = list(folder.glob("Creator.json.corrupt-*"))
    assert len(quarantined) == 1 and "half" in quarantined[0].read_text(encoding="utf-8")
    assert "moved to" in (store.last_error("Creator") or "")
    store.write("Creator", "fresh start")  # and it keeps working
    assert MemoryStore().memory("Creator") == "fresh start"


def test_wrong_shape_memory_file_is_quarantined_too(saves_dir: Path):
    folder = saves_dir / "agent_memory"
    folder.mkdir(parents=True)
    (folder / "Chat.json").write_text(json.dumps({"role": "Chat", "history": "not a list"}), encoding="utf-8")
    store = MemoryStore()
    assert store.history("Chat") == ("", [])
    assert list(folder.glob("Chat.json.corrupt-*")) and store.last_error("Chat")


def test_memory_is_capped_keeping_the_newest_notes(saves_dir: Path):
    store = MemoryStore(config=MemorySettings(max_memory_chars=100))
    for i in range(30):
        store.append("Analyzer", f"note {i:02d}")
    text = store.memory("Analyzer")
    assert len(text) <= 100 and text.endswith("note 29") and "note 00" not in text


def test_compaction_is_deterministic_and_bounded():
    entries = [
        HistoryEntry(role="user" if i % 2 == 0 else "assistant", content=f"turn {i} " + "x" * 300)
        for i in range(40)
    ]
    a = compact_history(entries, keep_recent=6, max_chars=600)
    b = compact_history(entries, keep_recent=6, max_chars=600)
    assert a == b
    summary, recent = a
    assert recent == entries[-6:]
    assert len(summary) <= 600 and summary.startswith("- (earlier turns omitted)")
    assert "turn 33" in summary and "turn 0 " not in summary  # newest older turns kept, oldest dropped
    assert all(len(line) <= 170 for line in summary.splitlines())
    msgs = history_messages(summary, recent)
    assert msgs[0].role == "system" and msgs[0].content.startswith("## Conversation Summary")
    assert [m.role for m in msgs[1:]] == ["user", "assistant"] * 3


def test_long_chat_history_compacts_into_the_summary_on_disk(saves_dir: Path):
    store = MemoryStore(config=MemorySettings(history_keep_recent=4, history_compact_after=8))
    for i in range(10):
        store.append_turn("Chat", f"question {i}", f"answer {i}")
    summary, recent = MemoryStore(config=store.config).history("Chat")
    # compacted at 10 entries (turn 4) and again at turn 7, keeping the last 4 each time
    assert [e.content for e in recent] == [
        f"{kind} {i}" for i in (6, 7, 8, 9) for kind in ("question", "answer")
    ]
    assert summary.splitlines() == [f"- {who}: {kind} {i}" for i in range(6) for who, kind in
                                    (("Player", "question"), ("Agent", "answer"))]  # fmt: skip


def test_memory_tool_writes_what_the_next_prompt_shows(saves_dir: Path):
    store = MemoryStore()
    stub = StubLlmClient(
        [tool_reply(("memory", {"action": "write", "content": "player loves tanks"})), "Noted.", "Planning."]
    )
    orch = Orchestrator(stub, tools=[memory_tool(store)], memory=store)
    orch.run(AiTaskRequest(role="Creator", hint="remember this"))
    orch.run(AiTaskRequest(role="Creator", hint="next wave"))
    memory_sections = [m.content for m in stub.requests[2].messages if m.content.startswith("## Memory")]
    assert memory_sections == ["## Memory\nplayer loves tanks"]
    first_sections = [m.content for m in stub.requests[0].messages if m.content.startswith("## Memory")]
    assert first_sections == ["## Memory\n(empty)"]


def test_one_unknown_key_costs_only_itself_the_notes_reach_the_next_prompt(saves_dir: Path):
    """Issue 38 item 2: a memory file with one unknown key (a newer game's, a hand edit) was quarantined
    whole and every note was gone. Now the file is still moved aside (nothing is overwritten), the known
    fields and every readable chat turn come back, the agent's next prompt shows the notes, and the file is
    rewritten so the next start reads it cleanly."""
    folder = saves_dir / "agent_memory"
    folder.mkdir(parents=True)
    turns = [
        {"role": "user", "content": "which weapon?"},
        {"role": "assistant", "content": "the lance", "emotion": "smug"},  # unknown key in a turn
        {"role": "narrator", "content": "a bad turn"},  # a turn that cannot be read
    ]
    notes = "player loves tanks\nhates spitters"
    summary = "## Conversation Summary\n- Player: hi"
    raw = {"version": 1, "role": "Creator", "memory": notes, "summary": summary, "history": turns,
           "mood": "grumpy"}  # fmt: skip
    (folder / "Creator.json").write_text(json.dumps(raw), encoding="utf-8")

    store = MemoryStore()
    stub = StubLlmClient(["Planning."])
    Orchestrator(stub, tools=[memory_tool(store)], memory=store).run(AiTaskRequest(role="Creator", hint="go"))
    shown = [m.content for m in stub.requests[0].messages if m.content.startswith("## Memory")]
    assert shown == [f"## Memory\n{notes}"]
    summary, history = store.history("Creator")
    assert summary == raw["summary"]
    assert history == [HistoryEntry(role="user", content="which weapon?"),
                       HistoryEntry(role="assistant", content="the lance")]  # fmt: skip
    why = store.last_error("Creator") or ""
    assert "unknown key 'mood'" in why and "1 unreadable history turn" in why, why
    (moved,) = folder.glob("Creator.json.corrupt-*")  # the original bytes stay, moved aside
    assert json.loads(moved.read_text(encoding="utf-8")) == raw
    again = MemoryStore()  # the next start: the rewritten file reads cleanly, no second quarantine
    assert again.memory("Creator") == notes and again.last_error("Creator") is None
    assert len(list(folder.glob("Creator.json.corrupt-*"))) == 1
