"""Per-statement facts (shapes, alias edges, imports) and the lazy readers over them."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.aliases import alias_symbol
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.records import RecordReport
from octoscript_lsp.analysis.statement_facts import (
    NO_FACTS,
    Anchored,
    PrefixFacts,
    facts_of,
    import_report,
    shifted_facts,
)
from octoscript_lsp.limits import MAX_STATIC_RECORD_ALIASES, MAX_STATIC_RECORD_SHAPES
from octoscript_lsp.syntax.check import analyze_syntax
from tests.syntax.test_incremental import apply

SOURCE = (
    "use mod.tool\n"
    "let r = {a: 1, b: {c: 2}}\n"
    "fn f() {\n    use mod.std.text\n    let s = r.b\n    let t = {x: 1}\n}\n"
    "let u = s\n"
)


def whole_text_facts(source: str):
    syntax = analyze_syntax(source)
    return facts_of(syntax.tokens, syntax.parsed.events)


def test_one_statement_holds_its_shapes_aliases_and_nested_imports():
    analysis = DocumentAnalysis(SOURCE)
    pieces = analysis.statement_facts.placed()
    assert [SOURCE[offset : offset + 3] for offset, _ in pieces] == ["use", "let", "fn ", "let"]
    function = pieces[2][1]
    assert [SOURCE[slice(*shape.binding)] for shape, _ in function.shapes] == ["t"]
    assert [SOURCE[slice(*alias.binding)] for alias, _ in function.aliases] == ["s"]
    assert [item.path for item in function.imports] == [("mod", "std", "text")]
    assert function.retained_fields == 1
    # The binding becomes visible at the statement end after the initializer.
    alias = function.aliases[0][0]
    assert SOURCE[alias.visible_from] == "\n" and alias.visible_from == alias.target[1] + 2


def test_a_statement_without_findings_shares_the_empty_facts():
    assert whole_text_facts("let a = 1 + 2\nf(a)\n") is NO_FACTS


def test_shifted_facts_equal_the_facts_found_at_the_new_place():
    moved = "// a comment that moves everything\n" + SOURCE
    delta = len(moved) - len(SOURCE)
    assert shifted_facts(whole_text_facts(SOURCE), delta) == whole_text_facts(moved)
    assert shifted_facts(NO_FACTS, 5) is NO_FACTS


def test_prefix_facts_leave_out_statements_past_the_prefix():
    analysis = DocumentAnalysis("use mod.tool\nlet r = {a: 1}\nlet = 2\nuse mod.app.w\nlet s = r\n")
    facts = analysis.statement_facts
    assert [item.path for item in analysis.imports.imports] == [("mod", "tool")]
    assert facts.shape_total == 1 and facts.alias_total == 0
    assert sum(bool(item.imports) for item in facts.found) == 1
    assert not any(item.aliases for item in facts.found)


def test_import_report_applies_the_prefix_inside_one_piece():
    source = "use mod.a\nuse mod.b\n"
    facts = PrefixFacts([(0, Anchored(0, whole_text_facts(source)))], source.index("use mod.b") + 4)
    assert [item.path for item in import_report(facts).imports] == [("mod", "a")]


def test_lookups_by_binding_agree_with_the_collected_lists():
    report = DocumentAnalysis(SOURCE).records
    for shape in report.shapes:
        assert report.shape_for(shape.binding[0]) is shape
    for alias in report.aliases:
        assert report.alias_for(alias.binding[0]) is alias
    assert report.shape_for(SOURCE.index("u =")) is None
    assert report.alias_for(SOURCE.index("r =")) is None


def test_budgets_are_exact_when_counting_is_not_enough():
    shapes = "".join(f"let r{index} = {{a: 1}}\n" for index in range(MAX_STATIC_RECORD_SHAPES + 1))
    aliases = "".join(f"let s{index} = r0\n" for index in range(MAX_STATIC_RECORD_ALIASES + 1))
    source = shapes + aliases
    report = DocumentAnalysis(source).records
    assert report.truncated and report.aliases_truncated
    last_shape = source.index(f"r{MAX_STATIC_RECORD_SHAPES} =")
    last_alias = source.index(f"s{MAX_STATIC_RECORD_ALIASES} =")
    assert report.shape_for(0 + len("let ")) is not None
    assert report.shape_for(last_shape) is None
    assert report.alias_for(source.index("s0 =")) is not None
    assert report.alias_for(last_alias) is None


def test_one_piece_for_the_whole_text_reads_like_statement_pieces():
    analysis = DocumentAnalysis(SOURCE)
    whole = RecordReport(PrefixFacts([(0, Anchored(0, whole_text_facts(SOURCE)))], len(SOURCE)))
    assert repr(whole) == repr(analysis.records)


edits = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=8),
        st.sampled_from(["let q = r\n", "{a: 1}", "use mod.x\n", "}", "\n", "r.b", "let "]),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits)
# A `}` deleted, then a `{` typed over in a later statement: the kept
# statement's unclosed record literal would close in that later statement.
@example([(0.4375, 3, "}"), (0.609375, 2, "let q = r\n")])
def test_reused_facts_equal_fresh_facts(changes):
    text = SOURCE * 3
    previous = DocumentAnalysis(text, 0)
    _ = previous.statement_facts
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        fresh = DocumentAnalysis(text, version)
        assert current.statement_facts.placed() == fresh.statement_facts.placed()
        assert repr(current.records) == repr(fresh.records)
        assert current.imports == fresh.imports
        previous = current


def test_alias_symbol_names_the_binding_also_before_a_closing_brace():
    # `}` right after the initializer: the parser complains, the edge counts.
    for source, names in (
        ("let b = 1\nfn f() { let a = b }\n", ("a",)),
        ("let b = 1\nlet c = b; let d = c\nfn f() {\n    let a = d\n}\n", ("c", "d", "a")),
    ):
        analysis = DocumentAnalysis(source)
        index = analysis.completion_index
        found = [
            (source[slice(*alias.binding)], alias_symbol(source, index, alias).start)
            for alias in analysis.records.aliases
        ]
        assert found == [(name, source.index(f"{name} =")) for name in names]
