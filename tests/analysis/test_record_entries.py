"""The one record-literal reader (`record_scan.record_entries`) agrees with the
parser on valid source, and both of its readers (static shapes, a module
call's input record) see the parser's keys."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.advice import literal_record
from octoscript_lsp.analysis.record_scan import direct_shape, record_entries
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.tokens import Kind

KEYS = st.sampled_from(["a", "b", "c", "if_", "x1"])
SCALARS = st.sampled_from(["1", '"s"', "[1, 2]", "(1 + 2)", "f(1, {z: 2})", "q.r", "[]"])


def _records(depth: int) -> st.SearchStrategy[str]:
    value = SCALARS if depth == 0 else st.one_of(SCALARS, st.deferred(lambda: _records(depth - 1)))
    entry = st.tuples(KEYS, value).map(lambda pair: f"{pair[0]}: {pair[1]}")
    separator = st.sampled_from([", ", "\n", ",\n", "\n\n"])
    return st.lists(st.tuples(entry, separator), max_size=4).map(
        lambda items: (
            "{"
            + "".join(text + sep for text, sep in items[:-1])
            + (items[-1][0] if items else "")
            + "}"
        )
    )


def _parser_keys(source: str, opening: int) -> list[str]:
    syntax = analyze_syntax(source)
    tokens = syntax.tokens
    for node in syntax.parsed.tree.walk():
        if node.kind == "record" and node.token == opening:
            return [tokens[field.token].text for field in node.children]
    raise AssertionError("the parser made no record at the literal")


@settings(max_examples=200)
@given(_records(2))
def test_both_readers_see_the_parser_keys(record: str):
    source = f"let r = {record}\nm.f({record})\n"
    syntax = analyze_syntax(source)
    assert syntax.valid, syntax.diagnostics
    tokens = syntax.tokens
    openings = [index for index, token in enumerate(tokens) if token.kind is Kind.LBRACE]
    let_opening = openings[0]
    keys = _parser_keys(source, let_opening)

    read = record_entries(tokens, let_opening)
    assert read is not None and tokens[read.closing].end == source.index("\nm.f(")
    assert [tokens[entry.first].text for entry in read.entries if not entry.is_empty] == keys

    shape = direct_shape(tokens, 1, let_opening)
    assert shape is not None
    assert [field.name for field in shape[0].fields] == list(dict.fromkeys(keys))

    call = next(index for index, token in enumerate(tokens) if token.text == "m") + 2
    literal = literal_record(tokens, tokens[call].end)
    assert literal is not None
    assert [name for name, _, _ in literal.keys] == keys
    assert literal.multiline == _top_level_break(record)


def _top_level_break(record: str) -> bool:
    """A line break directly inside the outer braces (not in a nested literal)."""
    depth = 0
    for char in record:
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
        elif char == "\n" and depth == 1:
            return True
    return False


def test_unclosed_and_mismatched_literals_have_no_entries():
    for source in ("let r = {a: 1", "let r = {a: (1]}", "let r = {a: 1)"):
        tokens = analyze_syntax(source).tokens
        opening = next(index for index, token in enumerate(tokens) if token.kind is Kind.LBRACE)
        assert record_entries(tokens, opening) is None


def test_an_empty_entry_before_a_comma_is_not_a_plain_record():
    tokens = analyze_syntax("let r = {a: 1,, b: 2}\n").tokens
    opening = next(index for index, token in enumerate(tokens) if token.kind is Kind.LBRACE)
    read = record_entries(tokens, opening)
    assert read is not None and [entry.is_empty for entry in read.entries] == [False, True, False]
    assert direct_shape(tokens, 1, opening) is None


def _texts(source: str, until: int) -> tuple[list[str], int] | None:
    tokens = analyze_syntax(source).tokens
    opening = next(index for index, token in enumerate(tokens) if token.kind is Kind.LBRACE)
    read = record_entries(tokens, opening, until)
    if read is None:
        return None
    return [
        source[tokens[entry.first].start : tokens[entry.end].start] for entry in read.entries
    ], read.closing


def test_a_literal_read_up_to_a_cursor():
    """With `until` the tokens wholly before it are read: the last entry is
    the unfinished one, ending at the token the cursor is in or after."""
    source = "f({a: 1, bc: [2, 3]\n de"
    assert _texts(source, len(source)) == (["a: 1", "bc: [2, 3]", "de"], -1)
    # In the middle of `de`: the unfinished entry ends before it.
    assert _texts(source, len(source) - 1) == (["a: 1", "bc: [2, 3]", ""], -1)
    # Inside an open bracket the separators are the bracket's.
    assert _texts(source, source.index("3")) == (["a: 1", "bc: [2, "], -1)
    # Closed before the cursor: the whole literal, as without `until`.
    closed = "f({a: 1}) + g"
    assert _texts(closed, len(closed)) == (["a: 1"], 6)  # f ( { a : 1 }
    # A cursor before the `{` itself, or a stray closer before the cursor.
    assert _texts(closed, 2) is None
    assert _texts("f({a: (1]", 9) is None
