"""The skill library behind read_skill, and screenshot PNG checking/downscaling."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from coreai.errors import McpError
from coreai.mcp import SkillLibrary
from coreai.mcp.images import fit_png


@pytest.fixture
def library(tmp_path: Path) -> SkillLibrary:
    root = tmp_path / "skills"
    root.mkdir()
    (root / "lua_modding.md").write_text("# Lua\n", encoding="utf-8")
    (root / "director-guide.md").write_text("# Director\n", encoding="utf-8")
    (tmp_path / "secret.md").write_text("top secret", encoding="utf-8")
    return SkillLibrary(root)


def test_names_and_forgiving_lookup(library: SkillLibrary) -> None:
    assert library.names() == ["director-guide", "lua_modding"]
    assert library("lua_modding") == "# Lua\n"
    assert library("Lua Modding") == "# Lua\n"
    assert library("DIRECTOR GUIDE") == "# Director\n"


@pytest.mark.parametrize("name", ["../secret", "secret", "/etc/passwd", "lua_modding.md/.."])
def test_unknown_or_escaping_names_are_refused(library: SkillLibrary, name: str) -> None:
    with pytest.raises(McpError, match="available: director-guide, lua_modding") as info:
        library(name)
    assert info.value.status == 404


def test_new_skill_files_show_up_while_running(library: SkillLibrary) -> None:
    (library.root / "mcp.md").write_text("# MCP\n", encoding="utf-8")
    assert "mcp" in library.names() and library("mcp") == "# MCP\n"


def test_repository_skills_folder_is_the_default() -> None:
    assert SkillLibrary().root.parts[-2:] == ("prompts", "skills")


def png(size: tuple[int, int], mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (10, 20, 30) if mode == "RGB" else (10, 20, 30, 128)).save(out, format="PNG")
    return out.getvalue()


def test_downscale_keeps_aspect_and_never_upscales() -> None:
    data, size = fit_png(png((1600, 900)), 800)
    assert size == (800, 450)
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG" and img.size == (800, 450)
    small = png((300, 200))
    assert fit_png(small, 1024) == (small, (300, 200))
    _, rgba = fit_png(png((2000, 100), "RGBA"), 500)
    assert rgba == (500, 25)


@pytest.mark.parametrize("bad", [b"", b"GIF89a....", b"\x89PNG\r\n\x1a\nnot really a png"])
def test_non_png_or_broken_bytes_are_a_clear_error(bad: bytes) -> None:
    with pytest.raises(McpError, match="PNG"):
        fit_png(bad, 512)
