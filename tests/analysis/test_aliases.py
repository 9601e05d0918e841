"""Alias edges, trivia-aware reference checks, call-result bindings and alias groups."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis import aliases, output_calls, sites
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.limits import MAX_STATIC_RECORD_ALIASES


def edges_of(source: str) -> list[tuple[str, str, int]]:
    analysis = DocumentAnalysis(source)
    return [
        (source[slice(*edge.binding)], source[slice(*edge.target)], len(edge.children))
        for edge in analysis.records.aliases
    ]


def test_root_child_and_grandchild_edges():
    source = "let a = b\nlet c = b.x\nlet d = b.x.y\n"
    assert edges_of(source) == [("a", "b", 0), ("c", "b", 1), ("d", "b", 2)]


@pytest.mark.parametrize(
    "initializer", ["b.x.y.z", "(b)", "b()", "b + 1", "true", "b[0]", "{a: 1}"]
)
def test_non_exact_initializers_are_no_edges(initializer: str):
    assert edges_of(f"let a = {initializer}\n") == []


def test_edges_before_newlines_and_semicolons():
    assert edges_of("fn f() {\nlet a = b\n}\nlet c = d; let e = f\n") == [
        ("a", "b", 0),
        ("c", "d", 0),
        ("e", "f", 0),
    ]


def test_edges_after_the_metadata_prefix_are_dropped():
    assert edges_of("let a = b\nlet = 1\nlet c = d\n") == [("a", "b", 0)]


def test_edge_budget_marks_truncation():
    source = "".join(f"let a{n} = b\n" for n in range(MAX_STATIC_RECORD_ALIASES + 1))
    graph = DocumentAnalysis(source).aliases
    assert len(graph.report.aliases) == MAX_STATIC_RECORD_ALIASES and graph.truncated


def test_edge_target_resolves_where_written():
    source = "let r = 1\nlet s = r\nlet r = 2\n"
    graph = DocumentAnalysis(source).aliases
    alias = graph.report.aliases[0]
    assert graph.target_of(alias).start == source.index("r")


@pytest.mark.parametrize(
    ("after", "mutates"),
    [
        (" = 1", True),
        (" += 1", True),
        (" == 1", False),
        (".a.b = 1", True),
        (".a.b\n", False),
        (".a(1)", True),
        ("[0]", True),
        (")", True),
        (",", True),
        ("}", True),
        ("\n", False),
        (" /* c */ = 1", True),
        (" /* open", True),
        ("", False),
    ],
)
def test_may_mutate(after: str, mutates: bool):
    assert sites.may_mutate("r" + after, 1) is mutates


@pytest.mark.parametrize(
    ("after", "expected"),
    [(".a(", True), (" . a . b (", True), (".a", False), ("(", False), (".a = 1", False)],
)
def test_direct_member_call(after: str, expected: bool):
    assert aliases.is_direct_member_call("m" + after, 1) is expected


def test_skip_trivia():
    assert sites.skip_trivia("  // c\n /* d */ x", 0) == 16
    assert sites.skip_trivia(" /* open", 0) is None


def _binding(source: str) -> output_calls.OutputCall | None:
    analysis = DocumentAnalysis(source)
    symbol = next(s for s in analysis.completion_index.symbols if s.name == "r")
    return output_calls.output_call_binding(source, symbol, analysis.diagnostic_prefix_end)


@pytest.mark.parametrize(
    ("initializer", "awaited"),
    [
        ("m.f({a: 1})", False),
        ("m.f(x).await()", True),
        ('m.f("a)b") // note', False),
        ("m.f(x) /* multi\nline */", False),
    ],
)
def test_output_call_binding_accepts(initializer: str, awaited: bool):
    found = _binding(f"let r = {initializer}\n")
    assert found is not None and found.awaited is awaited


@pytest.mark.parametrize(
    "initializer",
    ["m.f()", "m.f(a, b)", "m.f(x) + 1", "m . f(x)", "a.m.f(x)", "m.f(x).await().x", "(m.f(x))"],
)
def test_output_call_binding_refuses(initializer: str):
    assert _binding(f"let r = {initializer}\n") is None


def _import_graph(source: str):
    analysis = DocumentAnalysis(source)
    bindings = {item.binding_start for item in analysis.imports.imports}
    return analysis, analysis.aliases, bindings


def _symbol(analysis: DocumentAnalysis, name: str):
    return next(s for s in analysis.completion_index.symbols if s.name == name)


def test_import_chain_and_group():
    source = "use mod.app.w\nlet a = w\nlet b = a\nlet c = 1\n"
    analysis, graph, bindings = _import_graph(source)
    found = graph.import_binding_for(_symbol(analysis, "b"), bindings)
    assert found == _symbol(analysis, "w").start
    group = graph.import_group(found, bindings)
    assert group == {_symbol(analysis, n).start for n in ("w", "a", "b")}


def test_import_group_stability():
    source = "use mod.app.w\nlet a = w\na.f(1)\nlet b = a.g\n"
    analysis, graph, bindings = _import_graph(source)
    group = graph.import_group(_symbol(analysis, "w").start, bindings)
    assert not graph.import_group_is_stable(group, (0, 0))


def test_output_root_group_and_stability():
    source = "let r = m.f(x)\nlet a = r\nlet b = a\nb.x\n"
    analysis = DocumentAnalysis(source)
    graph = analysis.aliases
    root = graph.output_root(_symbol(analysis, "b"))
    assert root is not None and root.name == "r"
    group = graph.output_group(root)
    assert group == {_symbol(analysis, n).start for n in ("r", "a", "b")}
    assert graph.output_group_is_stable(group, (0, 0))


def test_output_group_refuses_child_edges():
    source = "let r = m.f(x)\nlet a = r\nlet s = a.x\n"
    analysis = DocumentAnalysis(source)
    graph = analysis.aliases
    assert graph.output_group(_symbol(analysis, "r")) is None
