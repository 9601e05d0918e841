"""Formatting and the outline of an edited version, made from the statements
the earlier versions kept (their per-statement views), equal a fresh
version's: random edits of valid texts, with CRLF and lone CR line ends and
block comments typed in, removed and cut in half along the way."""

from __future__ import annotations

from hypothesis import HealthCheck
from hypothesis import strategies as st

from octoscript_lsp.limits import MAX_SYNTAX_TOKENS
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.formatter import (
    FormattedSourceTooLarge,
    format_statements,
    format_tokens,
)
from octoscript_lsp.syntax.outline import outline_of, placed_declarations
from tests.conftest import quick_and_full

from .outline_reference import top_level_declarations

BASES = [
    "let a = 1\nlet   b = {x: 1,\n  y: 2}\nfn f(p) {\n    return p\n}\nlet c = a; let d=b\n",
    "let a = 1\r\n/* one\r\ntwo */\r\nfn f(p) {\r\n  return p\r\n}\r\nlet b = a   \r\n",
    '/* head */  let s = "text" // line\n\n// alone\n  let t = s\nfn g() {\n return |x| x\n}\n',
    "fn h() {\n  if a {\n let q = 1\n } else {\n 2\n }\n}\n/* a */ let r = [1, 2]\nlet z = 3",
]
# Whole statements and line ends, typed where a line starts.
LINES = [
    "let n = 1\n",
    "fn k(a) {\n  a\n}\n",
    "/* c */ ",
    "/* a\nb */\n",
    "/* a\r\nb */\r\n",
    "// note\n",
    "\n",
    "\r\n",
    "\r",
    "let m = 2; ",
    "  ",
]
# Anything, typed anywhere.
FRAGMENTS = [
    "\n",
    "\r\n",
    "\r",
    " ",
    "/*",
    "*/",
    "//",
    "{",
    "}",
    ";",
    "x",
    "1",
    "= ",
    "let ",
    "fn ",
]

edits = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.booleans(),  # at a line start
        st.integers(min_value=0, max_value=6),  # characters removed
        st.lists(st.sampled_from(LINES) | st.sampled_from(FRAGMENTS), max_size=3).map("".join),
        st.booleans(),  # undone instead: back to the last valid text
    ),
    min_size=1,
    max_size=8,
)


def edited(text: str, where: float, line_start: bool, removed: int, inserted: str) -> str:
    """`text` with `inserted` typed at `where` (as a fraction of its length)
    over `removed` characters, or at the start of that line."""
    position = int(where * len(text))
    if line_start:
        position = text.rfind("\n", 0, position) + 1
        removed = 0
    return text[:position] + inserted + text[position + removed :]


def formatted(result) -> str | None:
    try:
        return format_statements(result.statements, MAX_SYNTAX_TOKENS)
    except FormattedSourceTooLarge:
        return None


def _views_equal_fresh_ones(base: str, changes) -> None:
    previous = analyze_syntax(base)
    assert previous.valid
    formatted(previous)
    outline_of(previous.statements)
    text = valid = base
    for *change, undone in changes:
        text = valid if undone else edited(text, *change)
        current = analyze_syntax(text, previous=previous)
        fresh = analyze_syntax(text)
        assert current.valid == fresh.valid
        if fresh.valid:
            valid = text
            assert formatted(current) == format_tokens(text, fresh.tokens, MAX_SYNTAX_TOKENS)
            outline = outline_of(current.statements)
            assert outline == outline_of(fresh.statements)
            placed = [item for piece in outline for item in placed_declarations(piece)]
            assert placed == top_level_declarations(fresh.tokens)
        previous = current


(
    test_views_equal_fresh_ones,
    test_views_equal_fresh_ones_full_count,
) = quick_and_full(
    _views_equal_fresh_ones,
    st.sampled_from(BASES),
    edits,
    quick=120,
    full=1500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    examples=[
        # A block comment opened before a statement, closed after the next.
        (BASES[0], [(0.0, True, 0, "/* ", False), (0.3, True, 0, "*/\n", False)]),
        # A lone CR typed into a CRLF text, then undone.
        (BASES[1], [(0.5, False, 0, "\r", False), (0.5, False, 0, "\r\n", True)]),
    ],
)
