"""Offering the model servers found on loopback (``coreai.llm.discovery``) to the player: each model becomes
a backend entry of kind ``openai`` named ``<server>/<model>`` (``ollama/qwen2.5:7b``), a client in the
router (``/backend <role> ollama/qwen2.5:7b``) and a director mode (F6), with no setting needed. Main thread
only (it adds director sources)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loguru import logger

from coreai.errors import CoreAIError
from coreai.llm.config import OpenAILlmConfig
from coreai.llm.discovery import FoundServer
from coreai.llm.registry import BACKENDS
from game.ai.backends import add_backend
from game.ai.director_agent import AgentPlanSource

if TYPE_CHECKING:
    from game.ai.port import SessionParts

_log = logger.bind(feature="llm", trace_id="discovery")


def offer_servers(session: SessionParts, found: list[FoundServer]) -> list[str]:
    """Register every model of ``found`` not registered yet; returns the new backend names."""
    added: list[str] = []
    base = session.settings.llm.openai
    for server in found:
        for model in server.models:
            name = server.backend_name(model)
            if name in session.backends.registry:
                continue
            config = OpenAILlmConfig(
                base_url=server.base_url,
                api_key="local",
                model=model,
                connect_timeout_s=min(base.connect_timeout_s, 2.0),
                read_timeout_s=base.read_timeout_s,
                max_tokens=base.max_tokens,
            )
            try:
                BACKENDS.add(name, "openai", config, replace=True)
            except CoreAIError as exc:
                _log.warning("cannot offer {}: {}", name, exc)
                continue
            client = add_backend(session.backends, name, session.settings)
            if client is None:
                _log.warning("cannot offer {}: {}", name, session.backends.reasons.get(name, "?"))
                continue
            session.backends.reasons[name] = server.label(model)
            session.runtime.router.register(name, client)
            source = AgentPlanSource(session.runtime, name, session.capture)
            session.plan_sources = (*session.plan_sources, source)
            session.director.register_source(source)
            added.append(name)
        if any(server.backend_name(m) in added for m in server.models):
            models = ", ".join(server.label(m) for m in server.models)
            session.notify(
                "info", f"found {server.server.label} on 127.0.0.1:{server.server.port}: {models} (F6)"
            )
    return added
