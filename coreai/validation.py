"""Pydantic validation errors in player words: the field and what it must be, never pydantic's own text (its
error codes and documentation URLs). One function, ``explain``, for the files and command line the game reads.

    explain(exc)               # "seconds must be at most 21600 (got 100000)"
    explain(exc, flags=True)   # "--mcp-port must be at most 65535 (got 70000)"
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

MAX_SHOWN = 3  # problems named in one message; the rest are counted
_VALUE_CHARS = 40

_WORDS: dict[str, str] = {
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "finite_number": "must be a finite number",
    "missing": "is missing",
    "extra_forbidden": "is not a field this game knows",
    "literal_error": "must be one of {expected}",
    "enum": "must be one of {expected}",
    "string_too_long": "is too long (at most {max_length} characters)",
    "string_too_short": "is too short (at least {min_length} characters)",
    "too_long": "has too many items (at most {max_length})",
    "too_short": "has too few items (at least {min_length})",
    "string_pattern_mismatch": "has the wrong form",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "bool_parsing": "must be true or false",
    "bool_type": "must be true or false",
    "string_type": "must be text",
    "list_type": "must be a list",
    "dict_type": "must be a table of names and values",
    "model_type": "must be a table of names and values",
    "model_attributes_type": "must be a table of names and values",
}


def _field(loc: tuple[int | str, ...], flags: bool) -> str:
    if not loc:
        return "the file"
    if flags:
        return "--" + str(loc[0]).replace("_", "-")
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in loc).replace(".[", "[")


def _plain(value: Any) -> Any:
    """A bound as a player reads it: 21600, not 21600.0."""
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 else value


def _value(value: Any) -> str:
    if isinstance(value, bool | int | float) or value is None:
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= _VALUE_CHARS else value[:_VALUE_CHARS] + "...")
    return type(value).__name__


def describe(err: ErrorDetails, *, flags: bool = False) -> str:
    """One problem: the field, what it must be, and what it was (for a short scalar)."""
    template = _WORDS.get(err["type"])
    ctx = {k: _plain(v) for k, v in (err.get("ctx") or {}).items()}
    try:
        what = template.format(**ctx) if template else err["msg"]
    except (KeyError, IndexError):
        what = err["msg"]
    text = f"{_field(tuple(err['loc']), flags)} {what}"
    if err["type"] not in ("missing",) and "input" in err and not isinstance(err["input"], dict | list):
        text += f" (got {_value(err['input'])})"
    return text


def explain(exc: ValidationError, *, flags: bool = False) -> str:
    """Every problem of ``exc`` on one line (the first ``MAX_SHOWN``, then how many more)."""
    errors = exc.errors(include_url=False)
    parts = [describe(e, flags=flags) for e in errors[:MAX_SHOWN]]
    if len(errors) > MAX_SHOWN:
        parts.append(f"and {len(errors) - MAX_SHOWN} more")
    return "; ".join(parts) or "invalid"


def reason(exc: BaseException) -> str:
    """``explain`` for a ``ValidationError``, the exception's own text for anything else (a parse error)."""
    return explain(exc) if isinstance(exc, ValidationError) else str(exc)
