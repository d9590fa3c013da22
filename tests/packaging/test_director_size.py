"""The director stays small: ``game/director/`` holds at most ``MAX_LOC`` lines of code (issue 34).

A line of code is a physical line that holds at least one token other than a comment, a line break
(``NL``/``NEWLINE``), an ``INDENT`` or a ``DEDENT`` (read with ``tokenize``), and that does not belong to a
docstring: the first statement of a module, class or function when it is a bare string (found with ``ast``).
So blank lines, comment lines and docstrings do not count; a statement split over four lines counts four.

``python tests/packaging/test_director_size.py`` prints the count per file.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DIRECTOR = REPO / "game" / "director"
MAX_LOC = 2000

_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}


def docstring_lines(source: str) -> set[int]:
    """The physical lines of every module, class and function docstring."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def lines_of_code(source: str) -> int:
    code: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in _NOT_CODE:
            code.update(range(tok.start[0], tok.end[0] + 1))
    return len(code - docstring_lines(source))


def director_counts() -> dict[str, int]:
    return {
        str(p.relative_to(REPO)): lines_of_code(p.read_text(encoding="utf-8"))
        for p in sorted(DIRECTOR.rglob("*.py"))
    }


def test_the_counter_counts_code_only() -> None:
    source = (
        '"""Module doc\n\nover three lines."""\n'
        "\n"
        "# a comment\n"
        "import os  # trailing comment counts as code\n"
        "\n"
        "\n"
        "class A:\n"
        '    """Class doc."""\n'
        "\n"
        "    def f(self) -> str:\n"
        '        """Function doc."""\n'
        '        text = """not a docstring,\n'
        'but a value"""\n'
        "        return (\n"
        "            text\n"
        "        )\n"
    )
    # import, class, def, the two lines of `text`, and the three lines of the return
    assert lines_of_code(source) == 8


def test_the_director_is_at_most_2000_lines_of_code() -> None:
    counts = director_counts()
    total = sum(counts.values())
    table = "\n".join(f"  {n:5d}  {path}" for path, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    assert total <= MAX_LOC, f"game/director holds {total} lines of code, over {MAX_LOC}:\n{table}"


if __name__ == "__main__":
    counts = director_counts()
    for path, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{n:5d}  {path}")
    print(f"{sum(counts.values()):5d}  total (limit {MAX_LOC})")
