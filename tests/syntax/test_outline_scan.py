"""`top_level_declarations` skips a function body it has measured; the
declarations it finds are those a plain walk over every token finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.outline import top_level_declarations
from octoscript_lsp.syntax.tokens import IDENT, LBRACE, RBRACE


def plainly_found(tokens) -> list[tuple[str, str, int]]:
    """(kind, name, start) of each `fn`/`let` + name outside every brace,
    found by a walk that looks at every token."""
    found = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.kind is LBRACE:
            depth += 1
        elif token.kind is RBRACE:
            depth = max(depth - 1, 0)
        elif token.kind is IDENT and depth == 0 and token.text in ("fn", "let"):
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            if following is not None and following.kind is IDENT:
                kind = "function" if token.text == "fn" else "let"
                found.append((kind, following.text, token.start))
    return found


PIECES = [
    "fn a(x) {",
    "fn b() { let inner = 1 }",
    "let c = {k: 1}",
    "let d = fn() { 2 }",
    "{",
    "}",
    "}}",
    "fn e",
    "let",
    "x + 1",
    "\n",
    "; ",
    "fn f() { if x { let g = 1 } else { fn h() {} } }",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map(" ".join))
def test_declarations_are_those_a_plain_walk_finds(text: str):
    tokens = tokenize(text).tokens
    declarations = top_level_declarations(tokens)
    assert [(item.kind, item.name, item.start) for item in declarations] == plainly_found(tokens)


def test_a_function_body_is_skipped_whole():
    text = "fn f() { let hidden = 1 }\nlet shown = 2\nfn g() { fn nested() {} }\n"
    names = [item.name for item in top_level_declarations(tokenize(text).tokens)]
    assert names == ["f", "shown", "g"]
    function = top_level_declarations(tokenize(text).tokens)[0]
    assert text[function.start : function.end] == "fn f() { let hidden = 1 }"
