"""Hostile mod archives (issue 12 item 3): a lying zip bomb inflates as a stream under a byte cap with
bounded peak memory, symlinks out of the mods folder are refused, ``\\n`` in entry names is refused, folder
entries count against the file limit, and every failure is a ``ModError`` (never ``zipfile.BadZipFile``)."""

from __future__ import annotations

import tracemalloc
import zipfile
from pathlib import Path

import pytest

from coreai.errors import ModError
from coreai.lua.manager import ModManager
from coreai.lua.manifest import is_safe_relpath
from coreai.lua.packaging import read_zip
from coreai.lua.settings import LuaSettings

MANIFEST = (
    'name = "{name}"\nversion = "1.0.0"\nauthor = "t"\ndescription = "d"\n'
    'api_version = 1\nentry = "main.lua"\n'
)
PEAK_CAP = 4 * 1024 * 1024  # the stated cap: max_mod_bytes (1 MiB) of text + inflate windows + the directory


def _bomb(path: Path, inflated: int = 64 * 1024 * 1024, declared: int = 100) -> Path:
    """One deflated entry of ``inflated`` zero bytes whose headers declare ``declared`` bytes."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bomb/mod.toml", MANIFEST.format(name="bomb"))
        entry = zipfile.ZipInfo("bomb/main.lua")
        entry.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(entry, "w") as fh:
            chunk = b"-" * (1024 * 1024)
            for _ in range(inflated // len(chunk)):
                fh.write(chunk)
    data = bytearray(path.read_bytes())
    real = inflated.to_bytes(4, "little")
    lie = declared.to_bytes(4, "little")
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24), (b"PK\x07\x08", 12)):
        at = data.find(sig)
        while at >= 0:
            if data[at + offset : at + offset + 4] == real:
                data[at + offset : at + offset + 4] = lie
            at = data.find(sig, at + 4)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("declared", [100, 64 * 1024 * 1024], ids=["lying_header", "honest_header"])
def test_a_zip_bomb_is_a_mod_error_with_bounded_memory(
    tmp_path: Path, manager: ModManager, declared: int
) -> None:
    bomb = _bomb(tmp_path / "bomb.zip", declared=declared)
    assert bomb.stat().st_size < 1024 * 1024
    assert zipfile.ZipFile(bomb).getinfo("bomb/main.lua").file_size == declared
    tracemalloc.start()
    try:
        with pytest.raises(ModError, match=r"corrupt|inflates past|over 262144 bytes"):
            manager.import_mod(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    print(f"zip bomb (64 MiB inflated, {bomb.stat().st_size} B file, declares {declared} B): "
          f"peak Python heap {peak / 1024 / 1024:.2f} MiB, cap {PEAK_CAP // 1024 // 1024} MiB")  # fmt: skip
    assert peak < PEAK_CAP
    assert "bomb" not in manager.list_mods()


def test_a_corrupt_archive_is_a_mod_error(tmp_path: Path) -> None:
    good = tmp_path / "m.zip"
    with zipfile.ZipFile(good, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("m/mod.toml", MANIFEST.format(name="mm"))
        zf.writestr("m/main.lua", "-- " + "x" * 5000)
    data = bytearray(good.read_bytes())
    data[60:90] = b"\xff" * 30  # garble the deflate stream of the first entry
    bad = tmp_path / "bad.zip"
    bad.write_bytes(bytes(data))
    for path in (bad, tmp_path / "trunc.zip"):
        if path.name == "trunc.zip":
            path.write_bytes(good.read_bytes()[:-30])
        with pytest.raises(ModError):
            read_zip(path, LuaSettings())


def test_newline_in_entry_names_is_refused(tmp_path: Path) -> None:
    assert (
        not is_safe_relpath("sub\n/x.lua") and not is_safe_relpath("x.lua\n") and is_safe_relpath("sub/x.lua")
    )
    path = tmp_path / "nl.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("evil/mod.toml", MANIFEST.format(name="evil"))
        zf.writestr("evil/main.lua", "-- ok")
        zf.writestr("evil/sub\n/x.lua", "-- sneaky")
    with pytest.raises(ModError, match="not allowed"):
        read_zip(path, LuaSettings())


def test_folder_entries_count_against_the_file_limit(tmp_path: Path) -> None:
    path = tmp_path / "dirs.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("d/mod.toml", MANIFEST.format(name="dd"))
        zf.writestr("d/main.lua", "-- ok")
        for i in range(5000):
            zf.writestr(zipfile.ZipInfo(f"d/f{i}/"), b"")
    with pytest.raises(ModError, match="entries"):
        read_zip(path, LuaSettings())


def test_a_symlinked_mod_folder_is_never_written_through(
    tmp_path: Path, manager: ModManager, mods_root: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.lua").write_text("-- keep me")
    (mods_root / "evil").symlink_to(outside, target_is_directory=True)
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("evil/mod.toml", MANIFEST.format(name="evil"))
        zf.writestr("evil/main.lua", "-- evil")
    with pytest.raises(ModError, match="link out of the mods folder"):
        manager.import_mod(archive)
    assert sorted(p.name for p in outside.iterdir()) == ["precious.lua"]
    assert (outside / "precious.lua").read_text() == "-- keep me"
    assert "evil" not in {s.name for s in manager.load_all()}  # never discovered either
    real = mods_root / "real"
    real.mkdir()
    (real / "sub").symlink_to(outside, target_is_directory=True)  # a link inside a mod folder
    with pytest.raises(ModError):
        manager.import_mod({"mod.toml": MANIFEST.format(name="real"), "main.lua": "--", "sub/x.lua": "--"})
    assert sorted(p.name for p in outside.iterdir()) == ["precious.lua"]


@pytest.mark.filterwarnings("ignore:Duplicate name")  # zipfile warns while writing the hostile archive
@pytest.mark.parametrize(
    ("second", "said"),
    [("dup/main.lua", "two entries named 'dup/main.lua'"), ("dup/MAIN.lua", "case-insensitive disk")],
    ids=["same_name", "same_name_but_case"],
)
def test_an_archive_with_two_entries_for_one_file_is_refused(
    tmp_path: Path, manager: ModManager, second: str, said: str
) -> None:
    """Issue 38 item 4: an archive with ``main.lua`` twice was accepted and the second copy silently won."""
    path = tmp_path / "dup.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("dup/mod.toml", MANIFEST.format(name="dup"))
        zf.writestr("dup/main.lua", "report('first copy')")
        zf.writestr(second, "report('second copy')")
    with pytest.raises(ModError) as refused:
        manager.import_mod(path)
    message = str(refused.value)
    assert "dup.zip" in message and said in message, message
    assert "dup" not in manager.list_mods() and not (manager.user_root / "dup").exists()
