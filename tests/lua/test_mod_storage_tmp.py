"""Stale temporary files in ``saves/mod_storage`` (issue 26 item 6): a write killed mid-way leaves
``.<mod>.json.<random>.tmp``; the mod manager removes them at start, as the saves root and ``mod_versions/``
are cleaned (``coreai.persist.clean_stale_tmp``), and leaves the real storage files alone."""

from __future__ import annotations

from pathlib import Path

from lua_fakehost import FakeHost

from coreai.lua.manager import ModManager


def test_stale_storage_tmp_files_are_gone_after_the_next_start(saves_dir: Path, mods_root: Path) -> None:
    storage = saves_dir / "mod_storage"
    storage.mkdir()
    stale = [storage / ".mcp_console.json.k3j9x2.tmp", storage / ".kill_streak.json.a1b2c3.tmp"]
    for tmp in stale:
        tmp.write_text('{"half": ', encoding="utf-8")
    real = storage / "kill_streak.json"
    real.write_text('{"best": 12}', encoding="utf-8")
    manager = ModManager(FakeHost(), roots=[mods_root])
    try:
        assert not any(tmp.exists() for tmp in stale)
        assert real.read_text(encoding="utf-8") == '{"best": 12}'
        r = manager.execute("storage.set('n', 1); return storage.get('n')", mod="mcp_console")
        assert r.ok and r.values == [1]
    finally:
        manager.close()
    assert (storage / "mcp_console.json").is_file() and not list(storage.glob(".*.tmp"))
