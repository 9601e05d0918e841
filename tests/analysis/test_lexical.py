"""The lexical index: bindings, scopes, visibility intervals and the occurrence caps."""

from __future__ import annotations

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.lexical import Symbol
from octoscript_lsp.analysis.statement_index import StatementIndex
from octoscript_lsp.limits import MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_SYMBOL_OCCURRENCES
from octoscript_lsp.syntax.tree import SymbolKind as K


def index_of(source: str, *, valid: bool = True) -> StatementIndex:
    analysis = DocumentAnalysis(source)
    assert analysis.valid is valid, analysis.syntax.diagnostics
    return analysis.completion_index


def table(index: StatementIndex) -> list[tuple]:
    """Every symbol as (kind, name, definition, visibility, references)."""
    return [
        (s.kind, s.name, s.span, (s.visible_start, s.visible_end), s.references)
        for s in index.symbols
    ]


def only(index: StatementIndex, name: str, nth: int = 0) -> Symbol:
    return [symbol for symbol in index.symbols if symbol.name == name][nth]


def resolved(index: StatementIndex, source: str, needle: str, nth: int = 0) -> Symbol | None:
    """The symbol the nth occurrence of `needle` (as a reference) belongs to."""
    at = -1
    for _ in range(nth + 1):
        at = source.index(needle, at + 1)
    found = index.occurrence_at(at)
    return None if found is None else found.symbol


# ---------------------------------------------------------------- exact intervals


def test_let_is_visible_after_its_initializer_and_redeclaration_closes_it():
    source = "let v = 1\nlet v = v\nv"
    assert table(index_of(source)) == [
        # visible from the newline after `1`, closed where the second `v` opens
        (K.LET, "v", (4, 5), (9, 19), [(18, 19)]),
        (K.LET, "v", (14, 15), (19, 21), [(20, 21)]),
    ]


def test_let_v_equals_v_without_a_previous_binding_is_unresolved():
    source = "let self_ref = self_ref\n"
    index = index_of(source)
    assert table(index) == [(K.LET, "self_ref", (4, 12), (23, 24), [])]
    assert index.sites == [(15, 23)]


def test_let_without_initializer_is_visible_from_the_next_token():
    assert table(index_of("let x\nx")) == [(K.LET, "x", (4, 5), (5, 7), [(6, 7)])]


def test_function_name_is_visible_from_its_parameter_list_and_in_its_body():
    source = "fn f(p) {\n  f(p)\n}\nf(1)\n"
    assert table(index_of(source)) == [
        (K.FUNCTION, "f", (3, 4), (4, 24), [(12, 13), (19, 20)]),
        # a parameter is visible from the `)` after it until the token after the body
        (K.PARAMETER, "p", (5, 6), (6, 18), [(14, 15)]),
    ]


def test_parameters_become_visible_one_by_one():
    index = index_of("fn f(a, b) {\n  return a + b\n}\n")
    assert (only(index, "a").visible_start, only(index, "b").visible_start) == (6, 9)
    assert only(index, "a").visible_end == only(index, "b").visible_end == 29


def test_scope_end_after_a_trailing_comment_is_the_newline():
    source = "fn f(p) {\n  p\n} // done\nx\n"
    newline = source.index("\n", source.index("// done"))
    assert only(index_of(source), "p").visible_end == newline


def test_root_and_unclosed_scopes_end_at_the_source_length():
    source = "let a = 1\nfn f(p) {\n  p\n}"
    index = index_of(source)
    assert only(index, "a").visible_end == len(source)
    assert only(index, "p").visible_end == len(source)
    broken = "fn f(p) {\n  p + "
    index = index_of(broken, valid=False)
    assert only(index, "p").visible_end == len(broken)


def test_let_inside_if_block_is_not_closed_at_the_block_end_and_shadows_the_parameter():
    source = "fn f(x) {\n  if x {\n    let x = 2\n  }\n  return x\n}\nx"
    index = index_of(source)
    assert table(index) == [
        (K.FUNCTION, "f", (3, 4), (4, 51), []),
        # same (function) scope: the `let` ends the parameter's interval
        (K.PARAMETER, "x", (5, 6), (6, 32), [(15, 16)]),
        # lives on after the `if` block, until the token after the function body
        (K.LET, "x", (27, 28), (32, 49), [(46, 47)]),
    ]
    assert (50, 51) in index.sites  # the trailing `x` is a site, resolving to nothing


def test_else_branch_let_leaks_into_the_enclosing_scope():
    source = "let c = true\nif c {\n  let a = 1\n} else {\n  let b = 2\n}\na + b\n"
    index = index_of(source)
    assert resolved(index, source, "a +").name == "a"
    assert resolved(index, source, "b\n", 0).kind is K.LET
    assert only(index, "b").references == [(source.index("b\n"), source.index("b\n") + 1)]


def test_try_and_catch_value_blocks_do_not_scope():
    source = "let a = try {\n  let b = 1\n  b\n} catch {\n  let c = 2\n  c\n}\nb\nc\n"
    index = index_of(source)
    tail = source.rindex("b\nc")
    assert only(index, "b").references[-1] == (tail, tail + 1)
    assert only(index, "c").references[-1] == (tail + 2, tail + 3)
    assert only(index, "b").visible_end == only(index, "c").visible_end == len(source)


def test_try_catch_introduces_no_binding():
    index = index_of("let r = try f() catch 0\n")
    assert [symbol.name for symbol in index.symbols] == ["r"]


def test_for_bindings_are_not_visible_in_the_iterable_and_closed_after_the_body():
    source = "for a, b in a {\n  a\n}\nb"
    index = index_of(source)
    assert table(index) == [
        (K.LOOP_BINDING, "a", (4, 5), (14, 21), [(18, 19)]),
        (K.LOOP_BINDING, "b", (7, 8), (14, 21), []),
    ]
    assert index.sites == [(12, 13), (18, 19), (22, 23)]


def test_while_scope_covers_its_body():
    source = "let w = true\nwhile w {\n  let q = w\n}\nq\n"
    index = index_of(source)
    closer = source.index("}")
    assert only(index, "q").visible_end == closer + 1
    assert len(only(index, "w").references) == 2
    assert resolved(index, source, "q\n") is None


def test_loop_scope_covers_its_body():
    source = "loop {\n  let q = 1\n  break\n}\nq\n"
    index = index_of(source)
    assert only(index, "q").visible_end == source.index("}") + 1
    assert only(index, "q").references == []


def test_expression_lambda_parameters_close_after_the_body():
    source = "let g = |p, r| p + r\np"
    assert table(index_of(source)) == [
        (K.LET, "g", (4, 5), (20, 22), []),
        (K.LAMBDA_PARAMETER, "p", (9, 10), (10, 20), [(15, 16)]),
        (K.LAMBDA_PARAMETER, "r", (12, 13), (13, 20), [(19, 20)]),
    ]


def test_lambda_argument_closes_at_the_following_token():
    source = "let out = map(xs, |k| k)\n"
    index = index_of(source)
    assert only(index, "k").visible_end == source.index(")")


def test_block_lambda_closes_its_lets():
    source = "let h = || {\n  let z = 1\n  z\n}\nz\n"
    index = index_of(source)
    assert only(index, "z").visible_end == source.index("}") + 1
    assert resolved(index, source, "z\n", 1) is None


def test_inner_scope_shadowing_leaves_the_outer_interval_alone():
    source = "let x = 1\nfn f() {\n  let x = 2\n  x\n}\nx\n"
    index = index_of(source)
    outer, inner = only(index, "x", 0), only(index, "x", 1)
    assert (outer.visible_start, outer.visible_end) == (9, len(source))
    assert inner.references == [(source.index("x\n}"), source.index("x\n}") + 1)]
    assert outer.references == [(len(source) - 2, len(source) - 1)]
    # interval resolution picks the innermost: the later visibility start
    assert index.visible("x", source.index("x\n}")) is inner
    assert index.visible("x", len(source) - 2) is outer


def test_forward_references_are_not_resolved():
    source = "let a = b\nlet b = 1\ng()\nfn g() {\n  return 1\n}\n"
    index = index_of(source)
    assert only(index, "b").references == []
    assert only(index, "g").references == []
    assert index.visible("g", source.index("g()")) is None
    assert (source.index("g()"), source.index("g()") + 1) in index.sites


def test_use_binds_the_last_segment_and_path_segments_are_not_sites():
    source = "use mod.std.math\nuse mod.tool\nmath.pi\ntool\n"
    index = index_of(source)
    assert table(index) == [
        (K.IMPORT, "math", (12, 16), (16, len(source)), [(30, 34)]),
        (K.IMPORT, "tool", (25, 29), (29, len(source)), [(38, 42)]),
    ]
    # `pi` after the dot is not a site either
    assert index.sites == [(30, 34), (38, 42)]


def test_declarations_and_record_keys_are_not_sites():
    source = "let key = 1\nlet r = {key: key}\nfn f(a) {\n  return r.key\n}\n"
    index = index_of(source)
    second = source.index("key}")
    assert index.sites == [(second, second + 3), (source.index("r.key"), source.index("r.key") + 1)]


def test_references_are_listed_in_source_order():
    source = "let n = 1\nn + n\nfn f() {\n  n\n}\n"
    refs = only(index_of(source), "n").references
    assert refs == sorted(refs) and len(refs) == 3


def test_visible_bindings_dedupe_to_the_innermost_and_sort_by_name():
    source = "let x = 1\nlet b = 2\nfn f(x) {\n  x\n}\n"
    index = index_of(source)
    at = source.index("x\n}")
    chosen = index.visible_bindings(at)
    assert [(s.name, s.kind) for s in chosen] == [
        ("b", K.LET),
        ("f", K.FUNCTION),
        ("x", K.PARAMETER),
    ]


def test_navigation_index_is_empty_for_invalid_source():
    analysis = DocumentAnalysis("let a = 1\na +\n")
    assert not analysis.valid
    assert analysis.lexical.symbols == [] and not analysis.lexical.truncated
    assert [s.name for s in analysis.completion_index.symbols] == ["a"]


# ---------------------------------------------------------------- caps


def test_occurrence_cap_truncates_and_keeps_the_first_occurrences():
    count = MAX_LEXICAL_SYMBOL_OCCURRENCES + 200
    source = "let a = 1\n" + "a\n" * count
    index = index_of(source)
    assert index.truncated and index.sites_truncated
    symbol = only(index, "a")
    # one definition plus the first 4,095 references
    assert len(symbol.references) == MAX_LEXICAL_SYMBOL_OCCURRENCES - 1
    assert symbol.references[0] == (10, 11)
    retained = symbol.references[-1]
    assert index.occurrence_at(retained[0]).symbol is symbol
    dropped = 10 + 2 * MAX_LEXICAL_SYMBOL_OCCURRENCES
    assert index.occurrence_at(dropped) is None
    assert len(index.sites) == MAX_LEXICAL_COMPLETION_SITES


def test_dropped_definitions_are_not_bound():
    count = MAX_LEXICAL_SYMBOL_OCCURRENCES + 4
    source = "".join(f"let v{n} = 0\n" for n in range(count)) + f"v0\nv{count - 1}\n"
    index = index_of(source)
    assert index.truncated and not index.sites_truncated
    assert len(index.symbols) == MAX_LEXICAL_SYMBOL_OCCURRENCES
    first = index.symbols[0]
    assert index.occurrence_at(first.start).symbol is first
    assert first.references == []  # recorded after truncation
    last_start = source.index(f"let v{count - 1} ") + 4
    assert index.occurrence_at(last_start) is None
    assert len(index.sites) == 2  # sites are still recorded


def test_exactly_the_cap_is_not_truncated():
    source = "let a = 1\n" + "a\n" * (MAX_LEXICAL_SYMBOL_OCCURRENCES - 1)
    index = index_of(source)
    assert not index.truncated and not index.sites_truncated
    assert len(only(index, "a").references) == MAX_LEXICAL_SYMBOL_OCCURRENCES - 1


def test_site_cap_is_independent_of_resolution():
    source = "zz\n" * (MAX_LEXICAL_COMPLETION_SITES + 1)
    index = index_of(source)
    assert index.sites_truncated and not index.truncated
    assert index.incomplete
    assert len(index.sites) == MAX_LEXICAL_COMPLETION_SITES
    assert index.site_at(0) == (0, 2)
    assert index.site_at(3 * MAX_LEXICAL_COMPLETION_SITES) is None
    exactly = index_of("zz\n" * MAX_LEXICAL_COMPLETION_SITES)
    assert not exactly.sites_truncated


def test_site_lookup_is_end_inclusive():
    source = "let alpha = 1\nalpha\n"
    index = index_of(source)
    start = source.rindex("alpha")
    for offset in (start, start + 2, start + 5):
        assert index.site_at(offset) == (start, start + 5)
    assert index.site_at(start + 6) is None
    assert index.is_site(start, start + 5) and not index.is_site(start, start + 4)


def test_a_bare_carriage_return_shifts_the_safe_prefix_like_the_reference():
    from octoscript_lsp.analysis.document import DocumentAnalysis

    # The reference maps diagnostics back counting a bare CR as a line
    # break; a position that no longer exists leaves no safe prefix at all.
    assert DocumentAnalysis("let alpha = 1\nal\r@").diagnostic_prefix_end == 0
    assert DocumentAnalysis("let a = \r1\n").diagnostic_prefix_end == 8
    assert DocumentAnalysis("let = 1\n").diagnostic_prefix_end == 4


def test_first_lookup_by_scan_agrees_with_the_sorted_table():
    source = "fn f(a) {\n    let b = a + 1\n    return b\n}\nlet c = f(2)\nlet d = c + f(c)\n"
    for offset in range(len(source) + 1):
        first = DocumentAnalysis(source).completion_index
        scanned = (first.occurrence_at(offset), first.occurrence_ending_at(offset))
        second = DocumentAnalysis(source).completion_index
        second.occurrence_at(0)  # the table from here on
        assert scanned[0] == second.occurrence_at(offset)
        third = DocumentAnalysis(source).completion_index
        assert third.occurrence_ending_at(offset) == second.occurrence_ending_at(offset)
