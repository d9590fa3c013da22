"""Guard replacements per role, for the log and the talk evaluation."""

from __future__ import annotations

import threading
from collections import Counter

from loguru import logger

log = logger.bind(feature="agents", trace_id=None)  # the talk lines start with "talk guard"


class TalkStats:
    log = log

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.replies: Counter[str] = Counter()  # role -> finished replies
        self.replaced: Counter[str] = Counter()  # role -> replaced by the grounded template
        self.reasons: Counter[tuple[str, str]] = Counter()  # (role, check) -> count

    def record(
        self, role: str, replaced: bool, reasons: tuple[str, ...], trace_id: str, detail: str = ""
    ) -> None:
        with self._lock:
            self.replies[role] += 1
            if replaced:
                self.replaced[role] += 1
                for r in reasons:
                    self.reasons[(role, r)] += 1
            total, swapped = self.replies[role], self.replaced[role]
        if replaced:
            log.info(
                "talk guard replaced a {} reply ({}{}); {}/{} replaced so far",
                role,
                ", ".join(reasons),
                f": {detail}" if detail else "",
                swapped,
                total,
                trace_id=trace_id,
            )
        else:
            log.info(
                "talk guard passed a {} reply; {}/{} replaced so far", role, swapped, total, trace_id=trace_id
            )

    def reset(self) -> None:
        with self._lock:
            self.replies.clear()
            self.replaced.clear()
            self.reasons.clear()


STATS = TalkStats()
