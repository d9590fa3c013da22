"""Build the LLM backend registry the game's agents route through, with one log line per role saying which
backend it got and why.

The backends are the entries of ``coreai.llm.registry.BACKENDS``. ``stub`` is always there (scripted,
offline: ``offline_stub``). Any other entry is built when a role wants it and its kind's precheck passes
(``local``: the GGUF file checks out, it loads in the background; ``openai``: a server is configured). A role
whose backend is missing falls back to ``stub`` and the log line says why; nothing here raises for a sick
backend.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from loguru import logger

from coreai.errors import CoreAIError
from coreai.llm.registry import BACKENDS, RULES, BackendRegistry, BuildContext, ProgressCallback
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import LlmClient, LlmRequest, LlmResult
from coreai.lua import programmer_demo_script
from coreai.settings import BUILTIN_ROLES, Settings
from game.shop.merchant_stub import merchant_reply
from game.talk.prompt import suggested

log = logger.bind(feature="llm", trace_id="startup")

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
    """The scripted backend for offline play: the grounded answer for grounded talk (Merchant, Chat,
    Analyzer: ``game.talk``), the Programmer's demo (a mistake, then its repair), a valid 'hold' plan for the
    director, the Merchant's get_inventory flow for purchases, and one canned line for everyone else."""
    mistake, fixed = programmer_demo_script()

    def answer(request: LlmRequest) -> str | LlmResult:
        last = request.messages[-1].content if request.messages else ""
        if (said := suggested(last)) is not None:
            return said  # a grounded talk rewrite: the stub says the grounded answer (game.talk)
        if request.role == "Programmer":
            return fixed if "lua_error" in last or "no ```lua" in last else mistake
        if request.role == "Merchant":
            return merchant_reply(request)  # get_inventory first, then the answer from the shelf
        plan_tool = any(t.name == "set_director_plan" for t in request.tools)
        if request.role in ("Creator", "Director") and plan_tool:
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


def build_backends(
    settings: Settings,
    *,
    on_progress: ProgressCallback | None = None,
    registry: BackendRegistry = BACKENDS,
) -> BackendSetup:
    """Build every registered backend a route names (``stub`` always, as the game's offline stub)."""
    llm = settings.llm
    wanted = {*llm.backends.values(), llm.default_backend}
    setup = BackendSetup(registry={"stub": offline_stub()}, routes={})
    setup.reasons["stub"] = "scripted, always available"
    for name in registry.names():
        if name != "stub" and name in wanted:
            add_backend(setup, name, settings, on_progress=on_progress, registry=registry)
    if RULES in wanted:
        setup.reasons[RULES] = "'rules' is the director's deterministic policy, not a chat backend"
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


def add_backend(
    setup: BackendSetup,
    name: str,
    settings: Settings,
    *,
    on_progress: ProgressCallback | None = None,
    registry: BackendRegistry = BACKENDS,
) -> LlmClient | None:
    """Build the registry entry ``name`` into ``setup`` (its client, or the reason it is unavailable)."""
    llm = settings.llm
    why = registry.precheck(name, llm)
    if why is not None:
        setup.reasons[name] = why
        return None
    try:
        client = registry.build(name, llm, BuildContext(on_progress=on_progress))
    except CoreAIError as exc:
        setup.reasons[name] = str(exc)
        return None
    setup.registry[name] = client
    setup.reasons[name] = registry.describe(name, llm)
    return client


def describe(setup: BackendSetup) -> str:
    return json.dumps({"routes": setup.routes, "backends": setup.reasons}, indent=1)
