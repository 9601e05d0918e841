"""The per-statement lexical index answers every query as the plain replay does.

Documents are made of whole top-level statements that bind, shadow and
reference a few shared names (so references cross statements), with broken
fragments mixed in; versions replace, insert or delete statements, and some
versions never build their index, so the next one reuses what an older one
computed and the by-name tables carried over from the version before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from octoscript_lsp.analysis import statement_index
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.limits import MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_SYMBOL_OCCURRENCES
from tests.analysis.test_incremental_snapshot import answers, index_view, plain_index, snapshot
from tests.conftest import quick_and_full

name = st.sampled_from(["a", "b", "x"])
two = st.tuples(name, name)
three = st.tuples(name, name, name)
# Each example analyses several versions: no per-example deadline or speed check.
UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

statements = st.one_of(
    two.map(lambda n: f"let {n[0]} = {n[1]}\n"),
    two.map(lambda n: f"let {n[0]} = |{n[1]}| {n[1]} + {n[0]}\n"),
    three.map(
        lambda n: f"fn {n[0]}({n[1]}) {{\n  let {n[2]} = {n[1]}\n  return {n[2]} + {n[0]}\n}}\n"
    ),
    two.map(lambda n: f"if {n[1]} {{\n  let {n[0]} = {n[1]}\n}}\n"),
    two.map(lambda n: f"if {n[1]} {{ let {n[0]} = 1 }} else {{ let {n[1]} = {n[0]} }}\n"),
    two.map(lambda n: f"for {n[0]} in {n[1]} {{ {n[0]} }}\n"),
    two.map(lambda n: f"try {{ let {n[0]} = 1 }} catch {n[1]} {{ {n[1]} }}\n"),
    two.map(lambda n: f"while {n[0]} {{ let {n[1]} = {n[0]}; {n[1]} }}\n"),
    two.map(lambda n: f"let {n[0]} = {n[1]}; let {n[1]} = {n[0]}; let {n[0]} = {n[0]}\n"),
    two.map(lambda n: f"{n[0]}.{n[1]}({n[0]})\n"),
    name.map(lambda n: f"use mod.{n}\n"),
    name.map(lambda n: f"use mod.std.{n}\n"),
    name,
    st.sampled_from(
        ["{", "}", "(", ")", "fn ", "let ", "|", "\n", "/*", "*/", "// c\n", '"s"', ";"]
    ),
)


def _statement_index_answers_as_the_plain_index(text: str):
    assert answers(DocumentAnalysis(text).completion_index, text) == answers(
        plain_index(text), text
    )


(
    test_statement_index_answers_as_the_plain_index,
    test_statement_index_answers_as_the_plain_index_full_count,
) = quick_and_full(
    _statement_index_answers_as_the_plain_index,
    st.lists(statements, max_size=10).map("".join),
    quick=33,
    full=200,
    **UNTIMED,
)


changes = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=9),
        statements,
        st.sampled_from(["replace", "insert", "delete", "indent"]),
        # Whether this version builds its index, and whether it is queried
        # (which builds the by-name tables the next version may carry over).
        st.sampled_from(["skip", "build", "query"]),
    ),
    min_size=1,
    max_size=8,
)


def edited(parts: list[str], at: int, statement: str, how: str) -> str:
    """Apply one statement-level edit to `parts` in place; the new text."""
    at %= len(parts)
    if how == "replace":
        parts[at] = statement
    elif how == "insert":
        parts.insert(at, statement)
    elif how == "delete" and len(parts) > 1:
        del parts[at]
    else:
        parts.insert(0, " ")  # every statement moves
    return "".join(parts)


def _edited_statements_answer_as_a_fresh_index(parts: list[str], edits):
    _edit_and_compare(parts, edits, whole_snapshot=True)


(
    test_edited_statements_answer_as_a_fresh_index,
    test_edited_statements_answer_as_a_fresh_index_full_count,
) = quick_and_full(
    _edited_statements_answer_as_a_fresh_index,
    st.lists(statements, min_size=1, max_size=8),
    changes,
    quick=25,
    full=150,
    **UNTIMED,
)


def _edit_and_compare(parts: list[str], edits, whole_snapshot: bool) -> None:
    """Apply `edits` version by version; where one is queried (and at the
    end) the incremental index answers as the plain one, and with
    `whole_snapshot` the whole analysis equals a fresh one."""
    text = "".join(parts)
    previous = DocumentAnalysis(text, 0)
    answers(previous.completion_index, text)
    for version, (at, statement, how, use) in enumerate(edits, start=1):
        text = edited(parts, at, statement, how)
        current = DocumentAnalysis(text, version, previous)
        if use == "query" or version == len(edits):
            assert answers(current.completion_index, text) == answers(plain_index(text), text)
            if whole_snapshot:
                assert snapshot(current) == snapshot(DocumentAnalysis(text, version))
        elif use == "build":
            _ = current.completion_index
        previous = current


@pytest.mark.slow  # at the real budgets: thousands of statements, replayed plainly
def test_occurrence_and_site_budgets_decide_as_the_plain_index():
    half = MAX_LEXICAL_SYMBOL_OCCURRENCES // 2
    # One definition of `b`, then two occurrences per statement: 2n + 1 in all.
    for count in (half - 1, half, half + 1):
        text = "let b = 1\n" + "".join(f"let a{number} = b\n" for number in range(count))
        index, plain = DocumentAnalysis(text).completion_index, plain_index(text)
        assert (
            index.truncated == plain.truncated == (2 * count + 1 > MAX_LEXICAL_SYMBOL_OCCURRENCES)
        )
        assert index_view(index) == index_view(plain)
    for count in (MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_COMPLETION_SITES + 1):
        text = "q\n" * count
        index, plain = DocumentAnalysis(text).completion_index, plain_index(text)
        assert index.site_cut == (None if count <= MAX_LEXICAL_COMPLETION_SITES else (count - 1, 0))
        assert index.incomplete == plain.incomplete == (count > MAX_LEXICAL_COMPLETION_SITES)
        assert index_view(index) == index_view(plain)


@contextmanager
def occurrence_budget(budget: int) -> Iterator[None]:
    """A small occurrence budget, so short texts run past it (both the
    whole-text replay and the per-statement index read the limit from
    `statement_index`)."""
    with patch.object(statement_index, "MAX_LEXICAL_SYMBOL_OCCURRENCES", budget):
        yield


def _past_the_occurrence_budget_the_index_answers_as_the_plain_index(text: str, budget: int):
    with occurrence_budget(budget):
        index, plain = DocumentAnalysis(text).completion_index, plain_index(text)
        assert index.truncated == plain.truncated
        assert answers(index, text) == answers(plain, text)


(
    test_past_the_occurrence_budget_the_index_answers_as_the_plain_index,
    test_past_the_occurrence_budget_the_index_answers_as_the_plain_index_full_count,
) = quick_and_full(
    _past_the_occurrence_budget_the_index_answers_as_the_plain_index,
    st.lists(statements, max_size=12).map("".join),
    st.integers(min_value=0, max_value=12),
    quick=33,
    full=200,
    **UNTIMED,
)


def _past_the_budget_edited_statements_answer_as_a_fresh_index(
    parts: list[str], edits, budget: int
):
    """The statement where the budget runs out may record more or less
    though the parser kept it."""
    with occurrence_budget(budget):
        _edit_and_compare(parts, edits, whole_snapshot=False)


(
    test_past_the_budget_edited_statements_answer_as_a_fresh_index,
    test_past_the_budget_edited_statements_answer_as_a_fresh_index_full_count,
) = quick_and_full(
    _past_the_budget_edited_statements_answer_as_a_fresh_index,
    st.lists(statements, min_size=1, max_size=10),
    changes,
    st.integers(min_value=0, max_value=12),
    quick=25,
    full=150,
    **UNTIMED,
)


def test_the_statement_where_the_budget_runs_out_records_less_after_an_earlier_edit():
    """The parser keeps the statement where the budget runs out, yet an edit
    before it spends more of the budget: its recorded bindings change while
    every changed statement binds the same names as before."""
    cut = "if 1 {\n  let a = 1\n  let b = 2\n  let c = 3\n}\na + b\n"
    before, after = "fn g() { 1 }\n" + cut, "fn g(p) { p }\n" + cut
    with occurrence_budget(3):
        previous = DocumentAnalysis(before, 0)
        assert answers(previous.completion_index, before) == answers(plain_index(before), before)
        current = DocumentAnalysis(after, 1, previous)
        index = current.completion_index
        assert index.truncated and index.cut == 1
        assert [symbol.name for symbol in index.symbols] == ["g", "p"]
        assert answers(index, after) == answers(plain_index(after), after)


# A chain of bindings that runs past an occurrence budget of 30 in its
# middle; the edits go into `+ 5`, before the cut.
CHAIN = "let v0 = 1\n" + "".join(
    f"let v{number} = v{number - 1} + {number % 10}\n" for number in range(1, 40)
)
CHAIN_EDIT = CHAIN.index("+ 5") + 2


def test_past_the_budget_an_edit_keeping_the_length_keeps_the_later_statements():
    """A digit replaced before the cut: every later statement is the piece
    it was."""
    text, at = CHAIN, CHAIN_EDIT
    with occurrence_budget(30):
        previous = DocumentAnalysis(text, 0)
        before = previous.completion_index
        for version, digit in enumerate("6789", start=1):
            text = text[:at] + digit + text[at + 1 :]
            current = DocumentAnalysis(text, version, previous)
            index = current.completion_index
            assert index.cut == before.cut
            assert index.pieces[-1] == before.pieces[-1]
            assert answers(index, text) == answers(plain_index(text), text)
            previous, before = current, index


@pytest.mark.parametrize("where", ["+ 5", "+ 8"])
def test_typing_that_keeps_every_count_keeps_what_the_cut_statement_records(where: str):
    """Digits replaced, typed and deleted before the cut (`+ 5`) or after it
    (`+ 8` of `v38`): no count up to the cut changes, so the cut and the
    partial summary of the statement where the budget runs out are the
    previous version's, and the answers are a fresh index's. Typing a name
    before the cut counts again; after it, nothing up to the cut can change."""
    text = CHAIN
    at = text.index(where, text.index("let v38") if where == "+ 8" else 0) + 2
    with occurrence_budget(30):
        previous = DocumentAnalysis(text, 0)
        before = previous.completion_index
        assert before.cut is not None
        assert (text.count("\n", 0, at) < before.cut) == (where == "+ 5")
        edits = (("6", 1, True), ("7", 1, True), ("71", 1, True), ("7", 2, True), ("v2", 1, False))
        for version, (replacement, length, kept) in enumerate(edits, start=1):
            text = text[:at] + replacement + text[at + length :]
            current = DocumentAnalysis(text, version, previous)
            index = current.completion_index
            fresh = DocumentAnalysis(text).completion_index
            assert index.cut == fresh.cut
            assert index.pieces[index.cut][1] == fresh.pieces[fresh.cut][1]
            same = index.pieces[index.cut][1] == before.pieces[before.cut][1]
            assert same == (kept or where == "+ 8")
            assert answers(index, text) == answers(plain_index(text), text)
            previous, before = current, index


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("let v5 = v4 + 5", "let v5 = zz + 5"),  # a reference no longer resolves
        ("let v5 = v4 + 5", "let w5 = v4 + 5"),  # binds another name: v6's v5 is free
        ("let v5 = v4 + 5", "let v5 = v9 + 5"),  # resolves to a later binding: free
    ],
)
def test_an_edit_before_the_cut_keeping_the_statement_count_moves_the_cut(old: str, new: str):
    """The edited statement's own count (`occurrences`) is what it was, yet
    which names it leaves unresolved or binds at top level changed: the
    counts of it or a later statement change, so the cut moves and the
    statement where it falls is replayed."""
    with occurrence_budget(30):
        previous = DocumentAnalysis(CHAIN, 0)
        before = previous.completion_index
        assert before.cut is not None and CHAIN.count("\n", 0, CHAIN.index(old)) < before.cut
        text = CHAIN.replace(old, new)
        index = DocumentAnalysis(text, 1, previous).completion_index
        fresh = DocumentAnalysis(text).completion_index
        assert index.cut == fresh.cut != before.cut
        assert index.pieces == fresh.pieces
        assert answers(index, text) == answers(plain_index(text), text)


def test_past_the_budget_an_edit_changing_the_length_moves_the_later_statements():
    """A digit typed, then deleted, before the cut: every later statement
    moves, keeping its sites-only summary at its new offset."""
    text, at = CHAIN, CHAIN_EDIT
    with occurrence_budget(30):
        previous = DocumentAnalysis(text, 0)
        before = previous.completion_index
        for version in range(1, 5):
            if version % 2:
                text, shift = text[:at] + "7" + text[at:], 1
            else:
                text, shift = text[:at] + text[at + 1 :], -1
            current = DocumentAnalysis(text, version, previous)
            index = current.completion_index
            assert index.cut == before.cut
            later = index.pieces[index.cut + 1 :]
            moved = list(zip(later, before.pieces[before.cut + 1 :], strict=True))
            assert moved
            for (base, summary), (old_base, old_summary) in moved:
                assert base == old_base + shift
                assert summary == old_summary
            assert answers(index, text) == answers(plain_index(text), text)
            previous, before = current, index


def test_typing_inside_a_statement_cuts_as_a_fresh_version():
    """Digits typed inside a statement before the cut, and a reference
    typed there (it counts too): the cut and what each statement records
    are those of a fresh version."""
    lines = [f"let v{number} = v{number - 1} + {number % 10}\n" for number in range(1, 40)]
    text = "let v0 = 1\n" + "".join(lines)
    with occurrence_budget(30):
        previous = DocumentAnalysis(text, 0)
        at = text.index("+ 5") + 2
        for version, replacement in enumerate(("6", "7", "v3"), start=1):
            text = text[:at] + replacement + text[at + 1 :]
            current = DocumentAnalysis(text, version, previous)
            index = current.completion_index
            fresh = DocumentAnalysis(text).completion_index
            assert index.cut == fresh.cut
            assert index.pieces == fresh.pieces
            assert answers(index, text) == answers(plain_index(text), text)
            previous = current


def _edited_versions_decide_as_a_fresh_version(parts: list[str], edits, budget: int):
    """An edited version decides as a fresh one: cut or not, and where."""
    text = "".join(parts)
    with occurrence_budget(budget):
        previous = DocumentAnalysis(text, 0)
        _ = previous.completion_index
        for version, (at, statement, how, use) in enumerate(edits, start=1):
            text = edited(parts, at, statement, how)
            current = DocumentAnalysis(text, version, previous)
            if use != "skip":
                index, fresh = current.completion_index, DocumentAnalysis(text).completion_index
                assert index.cut == fresh.cut
                assert index.site_cut == fresh.site_cut
                assert index.pieces == fresh.pieces
            previous = current


(
    test_edited_versions_decide_as_a_fresh_version,
    test_edited_versions_decide_as_a_fresh_version_full_count,
) = quick_and_full(
    _edited_versions_decide_as_a_fresh_version,
    st.lists(statements, min_size=1, max_size=8),
    changes,
    st.integers(0, 12),
    quick=25,
    full=150,
    **UNTIMED,
)
