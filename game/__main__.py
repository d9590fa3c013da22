"""``python -m game`` / ``arena``: the command-line entry point (the subcommands live in ``game.cli``)."""

from __future__ import annotations

from game.cli import dispatch


def main(argv: list[str] | None = None) -> int:
    return dispatch(argv)


if __name__ == "__main__":
    raise SystemExit(main())
