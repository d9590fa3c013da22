"""``RoutingClient``: sends each request to the backend its role is routed to.

It holds a registry of already-built clients by name ("stub", "rules", "local", "openai", or any other)
and a role -> backend-name table taken from ``settings.llm.backends``. ``set_backend(role, name)`` reroutes
a role while the game runs; a request that names its own ``backend`` goes there without touching the
routes (the director's per-mode requests). A route to a name that has no client fails the call with
``LlmError`` (backend_unavailable) naming what is registered, never an unhandled exception.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping

from loguru import logger

from coreai.errors import LlmError, LlmErrorCode, SettingsError
from coreai.llm.types import LlmChunk, LlmClient, LlmRequest, LlmResult

_log = logger.bind(feature="llm")


class RoutingClient:
    name = "routing"

    def __init__(
        self,
        backends: Mapping[str, LlmClient],
        routes: Mapping[str, str] | None = None,
        default: str = "stub",
    ) -> None:
        self._lock = threading.Lock()
        self._backends = dict(backends)
        self._routes = dict(routes or {})
        self.default = default

    # -- registry -----------------------------------------------------------------------------------------
    def register(self, name: str, client: LlmClient) -> None:
        with self._lock:
            self._backends[name] = client
        _log.info("backend '{}' registered", name)

    def backends(self) -> dict[str, LlmClient]:
        with self._lock:
            return dict(self._backends)

    def set_backend(self, role: str, name: str) -> None:
        """Route ``role`` to the registered backend ``name`` from now on."""
        with self._lock:
            if name not in self._backends:
                known = ", ".join(sorted(self._backends))
                raise SettingsError(
                    f"llm.backends.{role}", f"no backend named '{name}' (registered: {known})"
                )
            previous = self._routes.get(role, self.default)
            self._routes[role] = name
        if previous != name:
            _log.info("role {} rerouted {} -> {}", role, previous, name)

    def routes(self) -> dict[str, str]:
        with self._lock:
            return dict(self._routes)

    def backend_for(self, role: str) -> str:
        with self._lock:
            return self._routes.get(role, self.default)

    def client_for(self, request: LlmRequest) -> LlmClient:
        """``request.backend`` when the request names one (one request, no shared route changes), else the
        role's route."""
        with self._lock:
            name = request.backend or self._routes.get(request.role, self.default)
            client = self._backends.get(name)
            known = ", ".join(sorted(self._backends))
        if client is None:
            how = "asks for" if request.backend else "is routed to"
            raise LlmError(
                LlmErrorCode.UNAVAILABLE,
                f"role {request.role} {how} '{name}', which is not available (registered: {known})",
                backend=name,
                trace_id=request.trace_id or None,
            )
        return client

    # -- LlmClient ----------------------------------------------------------------------------------------
    def complete(self, request: LlmRequest) -> LlmResult:
        return self.client_for(request).complete(request)

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        return self.client_for(request).stream(request)
