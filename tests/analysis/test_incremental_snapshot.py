"""Every version built from the one before must equal one built from scratch."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from octoscript_lsp.analysis import statement_index
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.sites import open_delimiters_before
from octoscript_lsp.analysis.statement_index import Budget, StatementIndex, summarize_unit
from octoscript_lsp.limits import MAX_LEXICAL_SYMBOL_OCCURRENCES
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.formatter import format_tokens
from tests.conftest import quick_and_full
from tests.syntax.outline_reference import top_level_declarations
from tests.syntax.test_incremental import BASES, FRAGMENTS, apply

LONG = "".join(
    f"use mod.tool\nlet v{index} = [{index}, v{index - 1}]\nfn f{index}(x) {{\n"
    f"    let y = |p| p + x\n    return y(v{index})\n}}\nlet v{index} = f{index}\n"
    f"let r{index} = {{a: {{b: 1}}, c: 2}}\nlet s{index} = r{index}.a\n"
    for index in range(1, 120)
)
edits = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=12),
        st.lists(st.sampled_from([*FRAGMENTS, "v1", "f2(", "x = "]), max_size=4).map("".join),
    ),
    min_size=1,
    max_size=5,
)


def edited_versions(base: str, changes):
    """(version, text, snapshot) after each edit, each snapshot built from the one before."""
    previous = DocumentAnalysis(base, 0)
    _ = previous.completion_index
    text = base
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        yield version, text, current
        previous = current


def index_view(index: StatementIndex) -> tuple:
    return (index.symbols, index.sites, index.truncated, index.sites_truncated)


def snapshot(analysis: DocumentAnalysis) -> tuple:
    return (
        analysis.valid,
        analysis.syntax.diagnostics if analysis.syntax else None,
        index_view(analysis.completion_index),
        index_view(analysis.lexical),
        analysis.diagnostic_prefix_end,
        repr(analysis.imports),
        repr(analysis.records),
        analysis.records.aliases,
        analysis.aliases.truncated,
        analysis.outline,
    )


def _incremental_snapshot_equals_fresh(base: str, changes, build_index: list[bool]):
    for version, text, current in edited_versions(base, changes):
        # Some versions are never asked for their index; the next one still reuses.
        if build_index[version - 1] or version == len(changes):
            assert snapshot(current) == snapshot(DocumentAnalysis(text, version))
            if current.valid:
                assert current.outline == top_level_declarations(current.syntax.tokens)
                assert current.formatted == format_tokens(text, current.syntax.tokens, 1 << 20)
            fresh_regions = DocumentAnalysis(text).regions
            assert current.regions.strings == fresh_regions.strings
            assert current.regions.comments == fresh_regions.comments
            for offset in (0, len(text) // 3, len(text) // 2, len(text) - 1, len(text)):
                assert open_delimiters_before(
                    text, offset, current.delimiters
                ) == open_delimiters_before(text, offset)


test_incremental_snapshot_equals_fresh, test_incremental_snapshot_equals_fresh_full_count = (
    quick_and_full(
        _incremental_snapshot_equals_fresh,
        st.sampled_from([*BASES, LONG]),
        edits,
        st.lists(st.booleans(), min_size=5, max_size=5),
        quick=15,
        full=120,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
)


def answers(index, text: str) -> tuple:
    """What every query of an index answers, at every offset of `text`."""

    def occurrence(found):
        if found is None:
            return None
        symbol = found.symbol
        return (symbol.name, symbol.start, found.start, found.end)

    # Every name of a short text; of a long one, a spread of them.
    every = sorted({symbol.name for symbol in index.symbols})
    names = [*every[:: max(1, len(every) // 12)], "undefined"]
    return (
        index_view(index),
        [
            (
                occurrence(index.occurrence_at(offset)),
                occurrence(index.occurrence_ending_at(offset)),
                index.site_at(offset),
                index.visible_bindings(offset),
                [index.visible(name, offset) for name in names],
            )
            for offset in _offsets(text)
        ],
        [index.is_site(start, end) for start, end in index.sites],
        [index.is_site(start, end + 1) for start, end in index.sites],
        [index.symbol_defined_at(symbol.start) for symbol in index.symbols],
        [index.symbol_defined_at(symbol.start + 1) for symbol in index.symbols],
    )


def _offsets(text: str) -> list[int]:
    """Every offset of a short text; around a spread of token edges of a long one."""
    if len(text) < 2000:
        return list(range(len(text) + 1))
    edges = {edge for token in analyze_syntax(text).tokens for edge in (token.start, token.end)}
    spread = sorted(edges)[::6]
    return sorted({near for edge in spread for near in (edge - 1, edge, edge + 1) if near >= 0})


def plain_index(text: str) -> StatementIndex:
    """Every scope event of `text` replayed at once, as one piece: what the
    per-statement index must answer as."""
    syntax = analyze_syntax(text)
    budget = Budget(statement_index.MAX_LEXICAL_SYMBOL_OCCURRENCES, lambda name: False)
    summary = summarize_unit(syntax.tokens, syntax.parsed.events, 0, budget)
    return StatementIndex([(0, summary)], len(text), 0 if summary.stopped else None)


@pytest.mark.slow  # a plain replay of a 1,000-line document, answered at every offset
def test_statement_index_answers_as_the_replayed_index():
    index = DocumentAnalysis(LONG).completion_index
    assert isinstance(index, StatementIndex)
    assert answers(index, LONG) == answers(plain_index(LONG), LONG)
    # `f3` is referenced from the next statement: resolved across statements.
    f3 = next(symbol for symbol in index.symbols if symbol.name == "f3")
    assert len(f3.references) == 1


def _incremental_statement_index_answers_as_a_fresh_replay(base: str, changes):
    for _, text, current in edited_versions(base, changes):
        assert answers(current.completion_index, text) == answers(plain_index(text), text)


(
    test_incremental_statement_index_answers_as_a_fresh_replay,
    test_incremental_statement_index_answers_as_a_fresh_replay_full_count,
) = quick_and_full(
    _incremental_statement_index_answers_as_a_fresh_replay,
    st.sampled_from(BASES),
    edits,
    quick=15,
    full=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_unchanged_statements_reuse_their_summaries():
    first = DocumentAnalysis(LONG, 1)
    _ = first.completion_index
    edited = LONG.replace("let v60 = [60, v59]", "let v60 = [61, v59]")
    second = DocumentAnalysis(edited, 2, first)
    _ = second.completion_index
    # The summary objects are what each statement's cache kept.
    summaries = [[id(summary) for _, summary in a.statement_summaries] for a in (first, second)]
    changed = [old != new for old, new in zip(*summaries, strict=True)]
    # Only the edited statement is new: the one before it, lexed again, has
    # the same text and token after, so it is the old statement.
    assert changed.count(True) == 1
    edited_at = edited.index("let v60 = [61")
    assert second.statement_summaries[changed.index(True)][0] == edited_at


def test_kept_statements_keep_their_summaries_and_facts():
    """A statement the next version keeps brings its lexical summary and its
    facts along: the same values, from its cache (`Statement.view`)."""
    text = "use mod.std.math\nlet a = 1\nfn f(x) {\n    return x + a\n}\nlet b = f(2)\n"
    first = DocumentAnalysis(text, 1)
    assert first.imports.for_binding(12, 16) is not None  # `math`: the statement facts
    _ = first.completion_index
    second = DocumentAnalysis(text.replace("1", "7"), 2, first)
    assert second.imports.for_binding(12, 16) is not None
    pairs = (
        (first.statement_summaries, second.statement_summaries),
        (first.statement_facts.pieces, second.statement_facts.pieces),
    )
    for before, after in pairs:
        same = [old[1] is new[1] for old, new in zip(before, after, strict=True)]
        assert same == [True, False, True, True]  # only `let a = 7` is new


@pytest.mark.slow  # plain replays of a 1,000-line document, answered at every offset
def test_an_edit_inside_a_statement_and_a_new_top_level_name_answer_as_a_replay():
    first = DocumentAnalysis(LONG, 1)
    assert first.completion_index.visible("f3", len(LONG) - 1) is not None
    inside = LONG.replace("let v60 = [60, v59]", "let v60 = [61, v59]")
    second = DocumentAnalysis(inside, 2, first)
    index = second.completion_index
    assert answers(index, inside) == answers(plain_index(inside), inside)
    # A new top-level name in the changed statement.
    renamed = inside.replace("let v60 = [61, v59]", "let w60 = [61, v59]")
    third = DocumentAnalysis(renamed, 3, second)
    assert answers(third.completion_index, renamed) == answers(plain_index(renamed), renamed)


# Typing and backspacing at the start of the text and on its first line: the
# whole tail moves on every keystroke (see syntax/moved.py).
start_keystrokes = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=16),
        st.sampled_from(["", "", "q", " ", "1", "\n", "x = ", "{", "}", "/*", "let "]),
    ),
    min_size=1,
    max_size=10,
)


def _typing_at_the_start_equals_fresh(base: str, strokes):
    previous = DocumentAnalysis(base, 0)
    _ = previous.completion_index
    text = base
    for version, (column, typed) in enumerate(strokes, start=1):
        line_end = text.find("\n")
        position = min(column, line_end if line_end >= 0 else len(text))
        if typed:
            text = text[:position] + typed + text[position:]
        else:
            text = text[: max(position - 1, 0)] + text[position:]
        current = DocumentAnalysis(text, version, previous)
        fresh = DocumentAnalysis(text, version)
        assert snapshot(current) == snapshot(fresh)
        if current.valid:
            assert current.formatted == fresh.formatted
        previous = current


test_typing_at_the_start_equals_fresh, test_typing_at_the_start_equals_fresh_full_count = (
    quick_and_full(
        _typing_at_the_start_equals_fresh,
        st.sampled_from([*BASES, LONG]),
        start_keystrokes,
        quick=10,
        full=80,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
)


@pytest.mark.slow  # 4,200 statements, replayed plainly
def test_past_the_occurrence_budget_the_index_is_cut_without_a_replay():
    # Definitions count against the occurrence budget, not the site budget.
    text = "".join(f"let a{number} = 1\n" for number in range(4200)) + "a7\n"
    index = DocumentAnalysis(text).completion_index
    assert isinstance(index, StatementIndex)
    assert index.truncated and index.incomplete
    assert index.cut == MAX_LEXICAL_SYMBOL_OCCURRENCES  # one definition per statement
    plain = plain_index(text)
    assert plain.truncated
    assert index_view(index) == index_view(plain)
    assert index.visible("a7", len(text) - 2) == plain.visible("a7", len(text) - 2)
