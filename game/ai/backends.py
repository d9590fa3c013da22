"""Build the LLM backend registry the game's agents route through, with one log line per role saying which
backend it got and why.

``stub`` is always there (scripted, offline). ``local`` is built when a role wants it and the GGUF file checks
out; it loads in the background. ``openai`` is built when a role wants it and a server is configured
(``[llm.openai] base_url`` or ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``). A role whose backend is missing falls
back to ``stub`` and the log line says why; nothing here raises for a sick backend.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from loguru import logger

from coreai.errors import CoreAIError
from coreai.llm.health import check_local_backend
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import LlmClient, LlmRequest, LlmResult
from coreai.lua import programmer_demo_script
from coreai.settings import BUILTIN_ROLES, Settings

log = logger.bind(feature="llm", trace_id="startup")
ProgressCallback = Callable[[float, str], None]

OFFLINE_LINE = (
    "(offline stub) I answer with canned lines. Route this role to a real model in saves/settings.toml "
    '([llm.backends], e.g. Chat = "local" or "openai").'
)


@dataclass
class BackendSetup:
    registry: dict[str, LlmClient]
    routes: dict[str, str]
    reasons: dict[str, str] = field(default_factory=dict)  # backend name -> why it is (un)available


def offline_stub() -> StubLlmClient:
    """The scripted backend for offline play: the Programmer's demo (a mistake, then its repair), a valid
    'hold' plan for the director, and one canned line for everyone else."""
    mistake, fixed = programmer_demo_script()

    def answer(request: LlmRequest) -> str | LlmResult:
        last = request.messages[-1].content if request.messages else ""
        if request.role == "Programmer":
            return fixed if "lua_error" in last or "no ```lua" in last else mistake
        if request.role == "Creator" and any(t.name == "set_director_plan" for t in request.tools):
            if any(m.role == "tool" for m in request.messages):
                return "Plan submitted: holding steady."
            plan = {
                "pressure": "hold",
                "reason": "offline stub: keep the current pace",
                "announcer": "The arena holds its breath.",
            }
            return tool_reply(("set_director_plan", plan))
        return OFFLINE_LINE

    return StubLlmClient(answer, name="stub")


def openai_configured(settings: Settings) -> bool:
    cfg = settings.llm.openai
    return bool(cfg.base_url or os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY"))


def build_backends(settings: Settings, *, on_progress: ProgressCallback | None = None) -> BackendSetup:
    llm = settings.llm
    wanted = {*llm.backends.values(), llm.default_backend}
    setup = BackendSetup(registry={"stub": offline_stub()}, routes={})
    setup.reasons["stub"] = "scripted, always available"
    if "local" in wanted:
        report = check_local_backend(llm.local.model_path)
        if report.ok:
            try:
                from coreai.llm.local import LocalLlmClient

                setup.registry["local"] = LocalLlmClient(llm.local, on_progress=on_progress)
                setup.reasons["local"] = (
                    f"{os.path.basename(llm.local.model_path)} (loading in the background)"
                )
            except CoreAIError as exc:
                setup.reasons["local"] = str(exc)
        else:
            setup.reasons["local"] = report.detail
    if "openai" in wanted:
        if openai_configured(settings):
            try:
                from coreai.llm.openai_backend import OpenAIBackend

                client = OpenAIBackend(llm.openai)
                setup.registry["openai"] = client
                setup.reasons["openai"] = f"{client.base_url} model {llm.openai.model}"
            except CoreAIError as exc:
                setup.reasons["openai"] = str(exc)
        else:
            setup.reasons["openai"] = "no server configured ([llm.openai] base_url or OPENAI_BASE_URL)"
    if "rules" in wanted:
        setup.reasons["rules"] = "'rules' is the director's deterministic policy, not a chat backend"
    roles = sorted({*BUILTIN_ROLES, *llm.backends})
    for role in roles:
        asked = llm.backends.get(role, llm.default_backend)
        if asked in setup.registry:
            setup.routes[role] = asked
            log.info("role {} -> {} ({})", role, asked, setup.reasons.get(asked, "configured"))
        else:
            setup.routes[role] = "stub"
            log.warning(
                "role {} -> stub: '{}' is unavailable: {}", role, asked, setup.reasons.get(asked, "?")
            )
    return setup


def describe(setup: BackendSetup) -> str:
    return json.dumps({"routes": setup.routes, "backends": setup.reasons}, indent=1)
