"""``python -m coreai.llm.serve ARGS``: llama-cpp-python's OpenAI-compatible server, loading the model as
the game does (without llama.cpp's weight repacking, which crashes the first decode on AMX Xeons).

ARGS are ``llama_cpp.server``'s own (``--model M.gguf --host 127.0.0.1 --port 8000`` ...).
"""

from __future__ import annotations

import runpy
import sys

from coreai.llm.local import _no_weight_repacking


def main(argv: list[str]) -> None:
    sys.argv = ["llama_cpp.server", *argv]
    # held for the life of the server: it loads the model after argument parsing, inside run_module
    with _no_weight_repacking():
        runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
