"""``coreai`` as a library: every module imports with arcade, pyglet and llama-cpp-python absent, and the
local backend then reports itself unavailable with a clear reason instead of failing on first use."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from coreai.paths import REPO_ROOT

BLOCKED_RUN = textwrap.dedent(
    """
    import importlib, pkgutil, sys

    BLOCKED = {"arcade", "pyglet", "llama_cpp"}

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named '{name}' (blocked)", name=name)
            return None

    sys.meta_path.insert(0, Blocker())
    import coreai
    names = sorted(m.name for m in pkgutil.walk_packages(coreai.__path__, "coreai."))
    for name in names:
        importlib.import_module(name)
    assert not BLOCKED & {m.split(".")[0] for m in sys.modules}, "a blocked module got in"
    print("imported", len(names))

    from coreai.errors import LlmError, LlmErrorCode
    from coreai.llm.health import check_local_backend
    from coreai.llm.registry import BACKENDS
    from coreai.settings import LlmSettings

    llm = LlmSettings()
    report = check_local_backend(llm.local.model_path)
    assert not report.ok and report.code == LlmErrorCode.UNAVAILABLE, report
    assert "llama-cpp-python" in report.detail, report.detail
    assert not BACKENDS.probe("local", llm).ok
    assert "llama-cpp-python" in BACKENDS.precheck("local", llm)
    try:
        BACKENDS.build("local", llm)
    except LlmError as exc:
        assert exc.code == LlmErrorCode.UNAVAILABLE and "llama-cpp-python" in str(exc), exc
        print("local unavailable:", exc)
    else:
        raise AssertionError("the local backend was built without llama_cpp")
    """
)


def test_coreai_imports_without_arcade_and_llama_cpp() -> None:
    run = subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-3000:]
    count = int(run.stdout.split("imported ")[1].split()[0])
    assert count > 60
    assert "local unavailable:" in run.stdout
