"""``python -m game`` / ``arena``: play in a window, or run headless with a bot and print a JSON summary."""

from __future__ import annotations

import sys
import time

from loguru import logger

from game.options import LaunchOptions, parse_args

log = logger.bind(feature="game")


def run(options: LaunchOptions) -> int:
    seed = options.seed if options.seed is not None else int(time.time()) % 1_000_000
    options = options.model_copy(update={"seed": seed})
    if options.headless:
        from game.headless import run_headless

        from game.saves import SaveStore

        summary = run_headless(seed=seed, seconds=options.seconds or 60.0, bot=options.bot or "average")
        store = SaveStore()
        for warning in store.warnings:
            log.warning(warning)
        store.record_run(summary)
    else:
        from game.app import run_window

        maybe = run_window(options)  # the window records every run it finishes
        if maybe is None:
            return 0
        summary = maybe
    if options.json_summary:
        sys.stdout.write(summary.model_dump_json() + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
