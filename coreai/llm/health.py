"""Health checks for the real backends, run before a backend is chosen or switched to.

* ``check_model_file(path)``: is this a readable GGUF file? Missing, empty, truncated-header or non-GGUF files
  give a clear, player-readable message; ``require_model_file`` raises it as ``LlmError(UNAVAILABLE)`` so the
  caller falls back to the rules/stub backend instead of crashing.
* ``check_local_backend(path)``: the same, after checking that llama-cpp-python (the ``[local]`` extra) is
  installed at all; every caller that decides whether the local backend can run uses this one.
* ``probe_openai(config)``: does the OpenAI-compatible server answer? ``GET /models`` first; where a server
  has no such route, a minimal chat POST (``max_tokens=1``) instead.
* The backend registry (``coreai.llm.registry``) names which probe each backend kind runs; F6 and the
  console ``/backend`` command call ``BACKENDS.probe(name, settings.llm)``.

Every probe returns a ``HealthReport``; none raises for a sick backend.
"""

from __future__ import annotations

import hashlib
import importlib.util
import struct
import time
from dataclasses import dataclass
from pathlib import Path

from loguru import logger

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.config import OpenAILlmConfig

log = logger.bind(feature="llm", trace_id="health")

GGUF_MAGIC = b"GGUF"
_MIN_MODEL_BYTES = 1 << 20  # no usable GGUF model is smaller than 1 MiB
_FALLBACK_HINT = "the game falls back to the rules backend; run `make model` or set [llm.local] model_path"


@dataclass(frozen=True)
class HealthReport:
    """The outcome of one probe. ``code`` is set when ``ok`` is false."""

    backend: str
    ok: bool
    detail: str
    code: LlmErrorCode | None = None
    latency_s: float = 0.0
    models: tuple[str, ...] = ()


def check_model_file(path: str | Path, *, verify_sha256: bool = False) -> HealthReport:
    """Check that ``path`` looks like a loadable GGUF model (magic, version, counts, size).

    With ``verify_sha256`` and a ``<file>.sha256`` next to it, the digest is checked too (about 0.3 s per
    100 MB).
    """
    t0 = time.perf_counter()
    p = Path(path)

    def bad(why: str) -> HealthReport:
        return HealthReport(
            "local",
            False,
            f"model file {p}: {why}; {_FALLBACK_HINT}",
            LlmErrorCode.UNAVAILABLE,
            time.perf_counter() - t0,
        )

    if not p.exists():
        return bad("not found")
    if not p.is_file():
        return bad("is not a file")
    try:
        size = p.stat().st_size
        with p.open("rb") as fh:
            header = fh.read(24)
    except OSError as exc:
        return bad(f"cannot be read ({exc.strerror or exc})")
    if len(header) < 24 or header[:4] != GGUF_MAGIC:
        return bad("is not a GGUF model (bad magic bytes); the file is corrupt or of another format")
    version, n_tensors, n_kv = struct.unpack("<IQQ", header[4:24])
    if version not in (1, 2, 3):
        return bad(f"has an unsupported GGUF version {version}; the file is corrupt")
    if n_tensors == 0 or n_tensors > 1_000_000 or n_kv > 1_000_000:
        return bad(f"has an implausible header ({n_tensors} tensors, {n_kv} keys); the file is corrupt")
    if size < _MIN_MODEL_BYTES:
        return bad(f"is only {size} bytes; the download was cut short")
    if verify_sha256:
        expected_file = p.with_name(p.name + ".sha256")
        if expected_file.exists():
            expected = expected_file.read_text(encoding="utf-8").split()[0].lower()
            digest = hashlib.sha256()
            with p.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
            if digest.hexdigest() != expected:
                return bad("sha256 does not match its .sha256 file; the file is corrupt")
    return HealthReport(
        "local",
        True,
        f"{p.name}: GGUF v{version}, {size / 1e6:.0f} MB, {n_tensors} tensors",
        None,
        time.perf_counter() - t0,
    )


LLAMA_CPP_MISSING = (
    "the local model needs llama-cpp-python, which is not installed "
    "(pip install 'arena-director[local]'); the game falls back to the rules backend"
)


def check_local_backend(path: str | Path) -> HealthReport:
    """Can the local backend run: llama-cpp-python importable, and a readable GGUF model at ``path``."""
    try:
        installed = importlib.util.find_spec("llama_cpp") is not None
    except (ImportError, ValueError):  # a broken or blocked install counts as missing
        installed = False
    if not installed:
        return HealthReport("local", False, LLAMA_CPP_MISSING, LlmErrorCode.UNAVAILABLE)
    return check_model_file(path)


def require_model_file(path: str | Path) -> None:
    """Raise ``LlmError(UNAVAILABLE)`` with the clear message when ``check_local_backend`` fails."""
    report = check_local_backend(path)
    if not report.ok:
        raise LlmError(LlmErrorCode.UNAVAILABLE, report.detail, backend="local")


def probe_openai(config: OpenAILlmConfig, *, timeout_s: float = 3.0) -> HealthReport:
    """``GET /models``; if the server has no such route (404/405/501), a one-token chat POST instead."""
    from coreai.llm.openai_backend import OpenAIBackend, map_openai_error

    t0 = time.perf_counter()
    quick = config.model_copy(
        update={
            "connect_timeout_s": min(config.connect_timeout_s, timeout_s),
            "read_timeout_s": min(config.read_timeout_s, timeout_s),
        }
    )
    backend = OpenAIBackend(quick)
    try:
        models = backend.list_models()  # None: the server has no /models route
        if models is not None:
            listed = config.model in models or not models
            note = "" if listed else f" (model '{config.model}' not listed; the server may still accept it)"
            return HealthReport(
                "openai",
                True,
                f"{backend.base_url}: {len(models)} model(s){note}",
                None,
                time.perf_counter() - t0,
                tuple(models),
            )
        backend.ping_chat()
        return HealthReport(
            "openai",
            True,
            f"{backend.base_url}: chat answers (no /models route)",
            None,
            time.perf_counter() - t0,
        )
    except LlmError as exc:
        return _failed("openai", exc, t0)
    except Exception as exc:  # a probe never raises
        return _failed("openai", map_openai_error(exc, "openai"), t0)
    finally:
        backend.close()


def _failed(backend: str, exc: LlmError, t0: float) -> HealthReport:
    log.warning("health probe of {} failed: {}", backend, exc)
    return HealthReport(backend, False, str(exc), exc.code, time.perf_counter() - t0)
