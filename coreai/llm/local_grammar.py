"""The reply grammar of a local model: a JSON schema as a llama.cpp grammar with no whitespace between tokens,
and the start of a forced tool's reply, which the grammar allows only one way.

Every generated token costs a whole decode step (on two cores about 40 ms for the bundled model), while a
prompt token costs a fraction of that, evaluated in one batch. Two things follow:

* llama-cpp-python's schema grammar lets the model put an optional space around every ``{``, ``:`` and
  ``,``; small models take it (``{ "pressure" : "spike" , ...``). ``compact_grammar`` empties that rule
  (whitespace inside strings is untouched): the reply is compact JSON.
* An object with required properties must start ``{"<first required>":``, and a small model spells that key
  out in many short tokens (``pre`` ``s`` ``s`` ``ure``: 8 tokens for ``{"pressure":``). ``forced_start``
  gives that text, to be written into the prompt after the assistant turn opens, and the grammar of the rest
  of the object, so the model generates from the first value on.

Grammars are built once per schema (cached), not per request.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

_SPACE_RULE = re.compile(r"^space ::= .*\n?", re.M)
_SPACE_REF = re.compile(r" space(?=\s|$)", re.M)


@lru_cache(maxsize=64)
def _compact(schema_json: str) -> Any:
    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(schema_json)
    # the rule and every reference to it go: an empty rule (``space ::= ""``) referenced between every
    # two tokens made llama.cpp's grammar stacks grow until one token took seconds
    return LlamaGrammar.from_string(_SPACE_REF.sub("", _SPACE_RULE.sub("", gbnf)), verbose=False)


def compact_grammar(schema: dict[str, Any]) -> Any:
    """The ``LlamaGrammar`` of ``schema`` (cached by its canonical JSON); raises ``ValueError`` when the
    schema cannot be converted."""
    return _compact(json.dumps(schema, sort_keys=True))


def compact_gbnf(schema: dict[str, Any]) -> str:
    """The grammar text, for tests and debugging."""
    return str(compact_grammar(schema)._grammar)


_ROOT = re.compile(r'^root ::= "\{" ([\w-]+)-kv (.+)$', re.M)


@lru_cache(maxsize=64)
def _start(schema_json: str) -> tuple[str, Any]:
    from llama_cpp.llama_grammar import LlamaGrammar

    gbnf = str(_compact(schema_json)._grammar)
    root = _ROOT.search(gbnf)
    if root is None:  # no required property: the object may start any way
        return "", _compact(schema_json)
    name = root.group(1)
    kv = re.search(rf'^{re.escape(name)}-kv ::= "((?:[^"\\]|\\.)*)" ":" ([\w-]+)$', gbnf, re.M)
    if kv is None:
        return "", _compact(schema_json)
    key = json.loads(f'"{kv.group(1)}"')  # the key as JSON text, quotes included
    rest = f"root ::= {kv.group(2)} {root.group(2)}"
    return "{" + key + ":", LlamaGrammar.from_string(_ROOT.sub(lambda _: rest, gbnf), verbose=False)


def forced_start(schema: dict[str, Any]) -> tuple[str, Any]:
    """``(start, grammar)``: the text every reply to ``schema`` begins with (``""`` when none is forced) and
    the grammar of what follows it. ``start + reply`` is one JSON object of the compact grammar."""
    return _start(json.dumps(schema, sort_keys=True))
