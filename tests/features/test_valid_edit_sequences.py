"""Edits that keep a document valid: the per-statement views carried from
version to version equal a fresh answer.

Random character edits leave most versions invalid, where formatting and
the outline answer nothing; these sequences change whole statements and
what lies between them instead: statements joined on one line with `;` and
split again (formatter stretches of several statements merging and
splitting), comments and blank lines between statements, the lead before
the first statement, LF and CRLF line ends.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features import semantic_delta
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.features.semantic_tokens import full_items
from octoscript_lsp.features.symbols import document_symbols_wire
from octoscript_lsp.syntax.formatter import format_tokens
from tests.features.semantic_reference import reference_full
from tests.features.test_semantic_delta import apply_answer

PRELUDE = "use mod.tool\nlet a = 1\n"
# Valid after the prelude, wherever they stand and in any order.
STATEMENTS = [
    "let b = {x: 1, y: [2, 3]}",
    "fn f(p) {\n    return p + a\n}",
    "fn g() {\n    let q = |r| r\n    return q(2)\n}",
    "if a > 0 {\n    a += 1\n}",
    'let s = "t"',
    "a = a*2",
    'let c = tool.call("x", a) /* note */',
    "loop {\n  break\n}",
    "let e = [1,2]",
    "let   h =a",
]
# What may follow a statement: a line end, blank lines, `;` (the next
# statement on the same line), comments between statements and before one.
SEPARATORS = [
    "\n",
    "\n\n",
    "; ",
    ";",
    "\n// note\n",
    "  // trailing\n",
    "\n/* a\nb */\n",
    " /* c */\n",
    "; /* d */ ",
    "\n  ",
    "\n/* e */ ",
]
LEADS = ["", "  ", "/* head */ ", "// head\n", "\n\n"]

statement = st.integers(min_value=0, max_value=len(STATEMENTS) - 1)
separator = st.integers(min_value=0, max_value=len(SEPARATORS) - 1)
document = st.tuples(
    st.sampled_from(LEADS),
    st.lists(st.tuples(statement, separator), min_size=1, max_size=8),
    st.booleans(),
)
edits = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "statement", "separator", "lead", "line ends"]),
        st.integers(min_value=0, max_value=20),
        st.integers(min_value=0, max_value=20),
    ),
    min_size=1,
    max_size=8,
)


def render(lead: str, body: list[tuple[int, int]], crlf: bool) -> str:
    text = lead + PRELUDE + "".join(STATEMENTS[s] + SEPARATORS[p] for s, p in body) + "\n"
    return text.replace("\n", "\r\n") if crlf else text


def edited(doc, operation: str, at: int, choice: int):
    lead, body, crlf = doc
    body = list(body)
    where = at % (len(body) + 1)
    if operation == "insert":
        body.insert(where, (choice % len(STATEMENTS), choice % len(SEPARATORS)))
    elif operation == "delete" and len(body) > 1:
        del body[where % len(body)]
    elif operation == "statement":
        body[where % len(body)] = (choice % len(STATEMENTS), body[where % len(body)][1])
    elif operation == "separator":
        body[where % len(body)] = (body[where % len(body)][0], choice % len(SEPARATORS))
    elif operation == "lead":
        lead = LEADS[choice % len(LEADS)]
    elif operation == "line ends":
        crlf = not crlf
    return lead, body, crlf


def test_every_statement_and_separator_is_valid():
    for statement_text in STATEMENTS:
        for separator_text in SEPARATORS:
            for lead in LEADS:
                text = lead + PRELUDE + statement_text + separator_text + "let z = 1\n"
                assert DocumentAnalysis(text).valid, text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document, edits, st.lists(st.booleans(), min_size=24, max_size=24))
# A comment put before a kept stretch of two statements on one line: its
# lead differs, its statements do not.
@example(("", [(5, 0), (5, 2), (5, 0), (0, 0)], False), [("separator", 0, 10)], [True] * 24)
def test_views_carried_over_valid_edits_equal_fresh_answers(doc, changes, asked):
    text = render(*doc)
    previous = DocumentAnalysis(text, 0)
    assert previous.valid
    last, answer = semantic_delta.full(None, full_items(previous))
    held = apply_answer([], answer)
    assert previous.formatted == format_tokens(text, previous.syntax.tokens, 1 << 20)
    document_symbols_wire(previous, PositionMap(text))
    for version, (operation, at, choice) in enumerate(changes, start=1):
        doc = edited(doc, operation, at, choice)
        text = render(*doc)
        current = DocumentAnalysis(text, version, previous)
        fresh = DocumentAnalysis(text)
        assert current.valid
        # Some versions are not asked for a view: the next one still reuses.
        if asked[3 * version - 3]:
            assert current.formatted == fresh.formatted
            assert current.formatted == format_tokens(text, fresh.syntax.tokens, 1 << 20)
        if asked[3 * version - 2]:
            last, answer = semantic_delta.delta(last, last.result_id, full_items(current))
            held = apply_answer(held, answer)
            assert held == reference_full(fresh).data
        if asked[3 * version - 1]:
            wire = document_symbols_wire(current, PositionMap(text))
            assert json.loads(wire) == json.loads(document_symbols_wire(fresh, PositionMap(text)))
        previous = current
