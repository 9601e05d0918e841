"""Every version built from the one before must equal one built from scratch."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.lexical import LexicalIndex, build_lexical_index
from octoscript_lsp.analysis.lexical_units import assemble, unit_summaries
from octoscript_lsp.analysis.sites import open_delimiters_before
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.formatter import format_tokens
from octoscript_lsp.syntax.outline import top_level_declarations
from octoscript_lsp.syntax.statements import EMPTY_MEMO
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


def index_view(index: LexicalIndex) -> tuple:
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
        analysis.aliases.edges,
        analysis.aliases.truncated,
        analysis.outline,
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([*BASES, LONG]), edits, st.lists(st.booleans(), min_size=5, max_size=5))
def test_incremental_snapshot_equals_fresh(base: str, changes, build_index: list[bool]):
    previous = DocumentAnalysis(base, 0)
    _ = previous.completion_index
    text = base
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
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
        previous = current


def test_merged_index_equals_replayed_index():
    syntax = analyze_syntax(LONG)
    pieces, _ = unit_summaries(
        LONG, syntax.lex, syntax.parsed.events, syntax.parsed.units, EMPTY_MEMO
    )
    assembled = assemble(pieces, len(LONG))
    assert assembled is not None
    merged = assembled[0]
    replayed = build_lexical_index(syntax.tokens, syntax.parsed.events, len(LONG))
    assert index_view(merged) == index_view(replayed)
    # `f3` is referenced from the next statement: resolved by the merge.
    f3 = next(symbol for symbol in merged.symbols if symbol.name == "f3")
    assert len(f3.references) == 1


def test_unchanged_statements_reuse_their_summaries():
    first = DocumentAnalysis(LONG, 1)
    _ = first.completion_index
    edited = LONG.replace("let v60 = [60, v59]", "let v60 = [61, v59]")
    second = DocumentAnalysis(edited, 2, first)
    _ = second.completion_index
    # Memo entries are (offset, summary): the summary objects are what is reused.
    summaries = [[id(entry[1]) for entry in a.unit_memo.found] for a in (first, second)]
    changed = [old != new for old, new in zip(*summaries, strict=True)]
    # The edited statement, and the one before it: the lexer restarts at the
    # line break in front of the edit, so that statement's last token is new.
    assert changed.count(True) == 2
    assert changed.index(True) + 1 == len(changed) - changed[::-1].index(True) - 1
    assert second.syntax.parsed.kept is not None


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


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([*BASES, LONG]), start_keystrokes)
def test_typing_at_the_start_equals_fresh(base: str, strokes):
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
