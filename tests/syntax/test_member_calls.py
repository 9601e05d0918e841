"""The one `recv.m(` recognizer, in both readings (tokens and text)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.member_calls import (
    MemberCallText,
    follows_dot,
    is_member_call,
    is_receiver_or_callee,
    member_call_after,
    member_call_receivers,
)

LOOSE = MemberCallText(trivia=True, max_members=16, canonical=False)
STRICT = MemberCallText(trivia=False, max_members=1, canonical=True)


def _tokens(source: str):
    return list(tokenize(source).tokens)


@pytest.mark.parametrize(
    ("source", "receivers"),
    [
        ("m.a(1)", ["m"]),
        ("m . /* c */ a (1)", ["m"]),
        ("x.m.a(1)", []),  # `m.a(` follows a dot: not a receiver
        ("m.a\n(1)", []),  # a line break is a token
        ("m.a", []),
        ("f(m.a(1), n.b())", ["m", "n"]),
    ],
)
def test_token_reading(source: str, receivers: list[str]):
    tokens = _tokens(source)
    assert [tokens[index].text for index in member_call_receivers(tokens)] == receivers


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab.( )\n/*x", max_size=24))
def test_the_receiver_scan_is_the_token_predicate(source: str):
    """The whole-stream loop finds exactly the indices the predicate accepts."""
    tokens = _tokens(source)
    expected = [
        index
        for index in range(len(tokens))
        if is_member_call(tokens, index) and not follows_dot(tokens, index)
    ]
    assert member_call_receivers(tokens) == expected


def test_receiver_or_callee():
    tokens = _tokens("a.b c(d) e")
    assert [is_receiver_or_callee(tokens, i) for i in range(len(tokens))][:1] == [True]
    names = {tokens[i].text: is_receiver_or_callee(tokens, i) for i in range(len(tokens))}
    assert names["a"] and names["c"] and not names["e"] and not names["d"]


@pytest.mark.parametrize(
    ("after", "members", "paren"),
    [
        (".a(", [(2, 3)], 3),
        (" . a . b (", [(4, 5), (8, 9)], 10),
        (" /* c */ .a(", [(11, 12)], 12),
        (".a", None, None),
        ("(", None, None),
        (".a = 1", None, None),
        (". /* open", None, None),
    ],
)
def test_text_reading_with_trivia(after: str, members, paren):
    tail = member_call_after("m" + after, 1, LOOSE)
    if members is None:
        assert tail is None
    else:
        assert tail is not None
        assert list(tail.members) == members
        assert tail.open_paren == paren


def test_text_reading_counts_members():
    chain = "m" + ".a" * 16 + "("
    assert member_call_after(chain, 1, LOOSE) is not None
    assert member_call_after("m" + ".a" * 17 + "(", 1, LOOSE) is None


def test_strict_text_reading():
    assert member_call_after("m.a(", 1, STRICT) is not None
    assert member_call_after("m .a(", 1, STRICT) is None
    assert member_call_after("m.a (", 1, STRICT) is None
    assert member_call_after("m.a.b(", 1, STRICT) is None
    assert member_call_after("m.let(", 1, STRICT) is None  # reserved
    assert member_call_after("m.let(", 1, LOOSE) is not None
    assert member_call_after("m.a(", 1, STRICT, limit=3) is None  # `(` past the limit
