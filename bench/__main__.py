"""`make bench`: runs every benchmark section in one process and prints one table per section."""

from __future__ import annotations

import importlib
import sys

SECTIONS = [
    "bench.bench_sim",
    "bench.bench_render",
    "bench.bench_coreai",
    "bench.bench_lua",
    "bench.bench_llm",
    "bench.realtime_director",
]


def main() -> int:
    only = sys.argv[1:]
    for name in SECTIONS:
        if only and not any(o in name for o in only):
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
