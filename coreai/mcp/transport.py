"""The MCP server's HTTP protocol: uvicorn's h11 protocol with a deadline for request headers.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but has no limit on a connection
that opened and never finished its headers: 20 such connections (a slowloris, a stuck client) stayed open
for 30 s and more, each holding a socket and a slot of the listen backlog. ``HeaderDeadlineH11`` closes a
connection whose request headers are not complete ``HEADER_TIMEOUT_S`` after the connection opened, or after
the first byte of a later request on a kept-alive connection. Bodies are the admission layer's business
(``coreai.mcp.admission``: capped, buffered, answered 413).
"""

from __future__ import annotations

import asyncio

import h11
from loguru import logger
from uvicorn.protocols.http.h11_impl import H11Protocol

_log = logger.bind(feature="mcp", trace_id="-")

HEADER_TIMEOUT_S = 5.0  # a request's headers must be complete this soon (seconds), or the connection closes


class HeaderDeadlineH11(H11Protocol):
    header_timeout_s = HEADER_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # still reading a request's headers
            if self._header_timer is None:
                self._arm()  # the first bytes of a later request on a kept-alive connection
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            _log.debug("MCP connection {} closed: no complete request headers in {:g} s", self.client,
                       self.header_timeout_s)  # fmt: skip
            self.transport.close()
