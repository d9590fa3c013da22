"""Settings: defaults, the documented example file, and clear errors naming the bad key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from coreai.errors import SettingsError
from coreai.paths import REPO_ROOT
from coreai.settings import Settings, load_settings, settings_from_dict


def test_missing_file_gives_defaults(saves_dir: Path):
    settings = load_settings()
    assert settings == Settings()
    assert settings.mainloop.drain_budget_ms == 2.0 and settings.tools.max_parallel == 4
    assert settings.llm.backends["Creator"] == "local" and settings.llm.local.n_ctx >= 256


# Defaults that depend on the machine (CPU count, install path) or are unset: documented as comments.
COMMENTED = {
    "mcp.token",
    "llm.local.model_path",
    "llm.local.n_threads",
    "llm.local.chat_format",
    "llm.openai.base_url",
    "llm.openai.api_key",
}


def _flat(d: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict) and k != "backends":
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def test_example_file_documents_exactly_the_defaults():
    text = (REPO_ROOT / "settings.example.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert settings_from_dict(data) == Settings()  # every uncommented value is the default
    documented = _flat(data)
    defaults = _flat(Settings().model_dump())
    assert set(defaults) - set(documented) == COMMENTED  # every other key is written out
    for key in COMMENTED:  # and the machine-dependent ones appear as commented lines
        assert f"# {key.rsplit('.', 1)[1]} = " in text, key


def test_file_values_override_defaults(saves_dir: Path):
    (saves_dir / "settings.toml").write_text(
        '[llm.backends]\nCreator = "local"\n[mainloop]\ndrain_budget_ms = 1.5\n[llm.local]\nn_ctx = 2048\n',
        encoding="utf-8",
    )
    s = load_settings()
    assert (
        s.llm.backends["Creator"] == "local"
        and s.mainloop.drain_budget_ms == 1.5
        and s.llm.local.n_ctx == 2048
    )


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        ("[mainloop]\ndrain_budget_ms = -1\n", "mainloop.drain_budget_ms"),
        ('[llm.backends]\nCreator = "gpt-9"\n', "llm.backends.Creator"),
        ("[llm.local]\nn_ctx = 12\n", "llm.local.n_ctx"),
        ("[tools]\nmax_parralel = 3\n", "tools.max_parralel"),
        ('[logging]\nfeatures = ["llm", "weather"]\n', "logging.features.1"),
    ],
)
def test_bad_values_name_the_dotted_key(saves_dir: Path, toml: str, key: str):
    path = saves_dir / "settings.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(SettingsError) as info:
        load_settings(path)
    assert info.value.key == key
    assert key in str(info.value)


def test_broken_toml_is_a_settings_error_naming_the_file(saves_dir: Path):
    path = saves_dir / "settings.toml"
    path.write_text("[mainloop\ndrain_budget_ms = ", encoding="utf-8")
    with pytest.raises(SettingsError, match="not valid TOML") as info:
        load_settings(path)
    assert info.value.key == str(path)
