"""The main-loop queue's UI lane: worker hand-offs run on the draining thread, in order, bounded."""

from __future__ import annotations

import threading

from coreai.mainloop import MainLoopQueue
from coreai.world import CoreAiBindings


def test_worker_posts_run_on_the_draining_thread_and_a_failure_is_not_fatal() -> None:
    queue = MainLoopQueue(CoreAiBindings())
    ran: list[tuple[int, str]] = []

    def worker(i: int) -> None:
        queue.post_ui(lambda: ran.append((i, threading.current_thread().name)), f"w{i}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)

    def broken() -> None:
        raise RuntimeError("a failing hand-off is logged, not fatal")

    queue.post_ui(broken, "broken")
    queue.post_ui(lambda: ran.append((99, threading.current_thread().name)), "last")
    assert queue.drain_ui() == 10
    assert sorted(i for i, _ in ran) == [*range(8), 99] and ran[-1][0] == 99
    assert {name for _, name in ran} == {threading.current_thread().name}
    assert queue.ui.pending() == 0


def test_the_lane_drains_while_paused_and_is_bounded() -> None:
    queue = MainLoopQueue(CoreAiBindings())
    queue.set_paused(True)
    seen: list[int] = []
    for i in range(600):
        queue.post_ui(lambda i=i: seen.append(i), "n")  # type: ignore[misc]
    assert queue.ui.pending() == 512 and queue.ui.dropped == 88, "the oldest are dropped past the bound"
    while queue.drain_ui():
        pass
    assert seen == list(range(88, 600)), "the newest 512, in order, although the game is paused"
