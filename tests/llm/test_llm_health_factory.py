"""Model-file checks, health probes and the backend registry's build/probe: clear messages, never a crash."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from llm_fault_server import FaultServer
from llm_testkit import free_port

from coreai.errors import LlmError, LlmErrorCode, SettingsError
from coreai.llm.config import LocalLlmConfig, OpenAILlmConfig
from coreai.llm.health import check_model_file, probe_openai, require_model_file
from coreai.llm.local import LocalLlmClient
from coreai.llm.openai_backend import OpenAIBackend
from coreai.llm.registry import BACKENDS, BackendRegistry, BuildContext
from coreai.llm.types import LlmClient
from coreai.settings import LlmSettings


def llm(local: LocalLlmConfig | None = None, openai: OpenAILlmConfig | None = None) -> LlmSettings:
    return LlmSettings(local=local or LocalLlmConfig(), openai=openai or OpenAILlmConfig())


def _fake_gguf(
    path: Path, *, magic: bytes = b"GGUF", version: int = 3, tensors: int = 10, size: int = 2 << 20
) -> Path:
    path.write_bytes(magic + struct.pack("<IQQ", version, tensors, 5) + b"\0" * (size - 24))
    return path


@pytest.mark.parametrize(
    "make, why",
    [
        (lambda d: d / "absent.gguf", "not found"),
        (lambda d: d, "is not a file"),
        (lambda d: _fake_gguf(d / "m.gguf", magic=b"PK\x03\x04"), "bad magic"),
        (lambda d: _fake_gguf(d / "m.gguf", version=99), "unsupported GGUF version"),
        (lambda d: _fake_gguf(d / "m.gguf", tensors=0), "implausible header"),
        (lambda d: _fake_gguf(d / "m.gguf", size=4096), "cut short"),
        (lambda d: (d / "empty.gguf", (d / "empty.gguf").write_bytes(b""))[0], "bad magic"),
    ],
)
def test_bad_model_files_get_a_clear_message(tmp_path: Path, make, why: str) -> None:
    path = make(tmp_path)
    report = check_model_file(path)
    assert not report.ok and report.code is LlmErrorCode.UNAVAILABLE
    assert why in report.detail and str(path) in report.detail and "rules backend" in report.detail
    with pytest.raises(LlmError) as info:
        require_model_file(path)
    assert info.value.code is LlmErrorCode.UNAVAILABLE and why in str(info.value)


def test_sha256_mismatch_is_caught_only_when_asked(tmp_path: Path) -> None:
    path = _fake_gguf(tmp_path / "m.gguf")
    (tmp_path / "m.gguf.sha256").write_text("0" * 64 + "  m.gguf\n")
    assert check_model_file(path).ok
    report = check_model_file(path, verify_sha256=True)
    assert not report.ok and "sha256" in report.detail


def test_the_real_model_passes_including_its_sha256(model_path: Path) -> None:
    report = check_model_file(model_path, verify_sha256=True)
    assert report.ok and "GGUF v3" in report.detail


def test_factory_refuses_a_missing_model_without_starting_anything(tmp_path: Path) -> None:
    with pytest.raises(LlmError) as info:
        BACKENDS.build("local", llm(LocalLlmConfig(model_path=str(tmp_path / "nope.gguf"))))
    assert info.value.code is LlmErrorCode.UNAVAILABLE and "not found" in str(info.value)
    with pytest.raises(SettingsError) as bad_name:
        BACKENDS.build("gpt-local", llm())
    assert bad_name.value.key == "llm.backend"


def test_factory_builds_both_real_backends(local_config: LocalLlmConfig, fault_server: FaultServer) -> None:
    openai_client = BACKENDS.build(
        "openai", llm(local_config, OpenAILlmConfig(base_url=fault_server.base_url))
    )
    assert isinstance(openai_client, OpenAIBackend) and isinstance(openai_client, LlmClient)
    stages: list[float] = []
    local_client = BACKENDS.build(
        "local", llm(local_config), BuildContext(on_progress=lambda f, s: stages.append(f))
    )
    assert isinstance(local_client, LocalLlmClient) and isinstance(local_client, LlmClient)
    local_client.wait_ready(60)
    local_client.close()
    assert stages[0] == 0.0 and stages[-1] == 1.0 and stages == sorted(stages)


def test_probe_lists_models(fault_server: FaultServer) -> None:
    report = probe_openai(OpenAILlmConfig(base_url=fault_server.base_url, model="fault-model"))
    assert report.ok and report.models == ("fault-model",) and "not listed" not in report.detail
    other = probe_openai(OpenAILlmConfig(base_url=fault_server.base_url, model="other"))
    assert other.ok and "not listed" in other.detail


@pytest.mark.real_llm
def test_probe_falls_back_to_a_chat_post_without_models_route(fault_server: FaultServer) -> None:
    base = fault_server.base_url.replace("/v1", "/nomodels/v1")
    before = fault_server.count("ok")
    report = probe_openai(OpenAILlmConfig(base_url=base, model="ok"))
    assert report.ok and "no /models route" in report.detail
    assert fault_server.count("ok") == before + 1 and fault_server.last("ok")["max_tokens"] == 1


def test_probe_of_dead_server_reports_unavailable_quickly() -> None:
    report = probe_openai(OpenAILlmConfig(base_url=f"http://127.0.0.1:{free_port()}/v1"), timeout_s=1.0)
    assert not report.ok and report.code is LlmErrorCode.UNAVAILABLE and report.latency_s < 3


def test_registry_probe_dispatches(tmp_path: Path, local_config: LocalLlmConfig) -> None:
    assert BACKENDS.probe("local", llm(local_config)).ok
    missing = LocalLlmConfig(model_path=str(tmp_path / "x.gguf"))
    assert not BACKENDS.probe("local", llm(missing)).ok
    unknown = BACKENDS.probe("rules", llm(local_config))
    assert not unknown.ok and "unknown backend" in unknown.detail
    assert BACKENDS.probe("stub", llm()).ok and not BACKENDS.needs_probe("stub")
    assert BACKENDS.needs_probe("local") and BACKENDS.needs_probe("openai")


def test_a_second_entry_of_a_kind_has_its_own_name_and_config(
    tmp_path: Path, local_config: LocalLlmConfig, fault_server: FaultServer
) -> None:
    """An added entry (a discovered server) builds, probes and is named on its own; settings accept it."""
    registry = BackendRegistry()
    for kind in BACKENDS.kinds():
        registry.register_kind(kind)
    entry = registry.add(
        "lmstudio", "openai", OpenAILlmConfig(base_url=fault_server.base_url, model="fault-model")
    )
    assert entry.kind.name == "openai" and registry.names() == ("stub", "local", "openai", "lmstudio")
    assert registry.config_for("openai", llm()).base_url is None, "the default entry keeps [llm.openai]"
    client = registry.build("lmstudio", llm())
    assert isinstance(client, OpenAIBackend) and client.name == "lmstudio"
    client.close()
    report = registry.probe("lmstudio", llm())
    assert report.ok and report.backend == "lmstudio" and report.models == ("fault-model",)
    with pytest.raises(SettingsError, match="already registered"):
        registry.add("lmstudio", "openai")
    with pytest.raises(SettingsError, match="unknown backend kind"):
        registry.add("x", "gpt")
    with pytest.raises(SettingsError, match="needs a OpenAILlmConfig"):
        registry.add("y", "openai", local_config)
    registry.remove("lmstudio")
    assert "lmstudio" not in registry.names()


def test_settings_backend_names_and_sections_come_from_the_registry() -> None:
    assert set(LlmSettings.model_fields) >= {k.config_key for k in BACKENDS.kinds() if k.config_key}
    for kind in BACKENDS.kinds():
        if kind.config_key:
            assert LlmSettings.model_fields[kind.config_key].annotation is kind.config_model
    for name in BACKENDS.route_names():
        assert LlmSettings(default_backend=name, backends={"Chat": name}).backends["Chat"] == name
    with pytest.raises(ValueError, match="registered: stub, local, openai"):
        LlmSettings(backends={"Chat": "gpt-9"})
