"""MovedList: stretches of earlier lists, moved when read, behave like a list."""

from __future__ import annotations

from bisect import bisect_left

import pytest

from octoscript_lsp.limits import MAX_MOVED_PIECES
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.moved import MovedList, assemble, moved_pieces, pieces_of
from octoscript_lsp.syntax.tokens import Kind, Token, first_token_from, moved_tokens, token_start


def plus(items: list[int], move: tuple[int, int]) -> list[int]:
    return [item + move[1] for item in items]


def built(base: list[int]) -> MovedList:
    """base[:3] as is, base[3:] moved by 100, through the public helpers."""
    pieces = pieces_of(base, 0, 3) + moved_pieces(pieces_of(base, 3, len(base)), 0, 100)
    result = assemble(pieces, plus)
    assert isinstance(result, MovedList)
    return result


def test_reads_like_the_list_it_stands_for():
    base = list(range(100))
    expected = base[:3] + [item + 100 for item in base[3:]]
    moved = built(base)
    assert len(moved) == len(expected)
    assert list(moved) == expected
    assert [moved[index] for index in range(len(moved))] == expected
    assert moved[-1] == expected[-1] and moved[-100] == expected[0]
    assert moved[2:70] == expected[2:70]
    assert moved[::7] == expected[::7]
    assert moved[50:10] == [] and moved[90:500] == expected[90:]
    assert list(reversed(moved)) == expected[::-1]
    assert moved == expected and expected == moved
    assert moved.index(150) == expected.index(150)
    assert bisect_left(moved, 120) == bisect_left(expected, 120)
    with pytest.raises(IndexError):
        moved[100]
    with pytest.raises(IndexError):
        moved[-101]


def test_peek_and_pieces_make_nothing():
    base = list(range(100))
    moved = built(base)
    assert moved.peek(2) == (2, None)
    assert moved.peek(40) == (40, (0, 100))
    # A later version built from this one refers to the same base list.
    again = assemble(moved_pieces(moved.pieces(10, 60), 0, -100), plus)
    assert type(again) is list and again == base[10:60]
    assert all(chunk is None for chunk in moved._chunks)


def test_moves_cancel_to_a_plain_list():
    base = list(range(50))
    moved = built(base)
    back = assemble(moved_pieces(moved.pieces(0, len(moved)), 0, -100), plus)
    # The first stretch is now moved by -100, the rest by nothing.
    assert list(back) == [item - 100 for item in base[:3]] + base[3:]
    plain = assemble(pieces_of(base, 0, 20) + pieces_of(base, 20, 50), plus)
    assert type(plain) is list and plain == base


def test_many_edits_keep_the_pieces_bounded():
    base = list(range(1000))
    current: list[int] | MovedList = base
    expected = list(base)
    for step in range(3 * MAX_MOVED_PIECES):
        at = (step * 97) % 900 + 10
        pieces = pieces_of(current, 0, at) + moved_pieces(
            pieces_of(current, at, len(current)), 0, 1
        )
        current = assemble(pieces, plus)
        expected = expected[:at] + [item + 1 for item in expected[at:]]
        assert isinstance(current, MovedList)
        assert len(current.pieces(0, len(current))) <= MAX_MOVED_PIECES
        assert list(current) == expected


def test_token_searches_see_moved_offsets():
    tokens = [Token(Kind.IDENT, "a", index * 2, index * 2 + 1) for index in range(40)]
    moved = assemble(
        pieces_of(tokens, 0, 10) + moved_pieces(pieces_of(tokens, 10, 40), 0, 5), moved_tokens
    )
    starts = [token.start for token in moved]
    assert starts[:10] == list(range(0, 20, 2)) and starts[10] == 25
    assert [token_start(moved, index) for index in range(40)] == starts
    for offset in (0, 7, 19, 20, 24, 25, 26, 90):
        assert first_token_from(moved, offset) == bisect_left(starts, offset)


def test_a_length_change_does_not_make_the_tail():
    base = "".join(f"let v{index} = {index}\n" for index in range(500))
    previous = analyze_syntax(base)
    result = analyze_syntax("x" + base[1:2] + "y" + base[2:], previous=previous)
    tokens = result.lex.tokens
    assert isinstance(tokens, MovedList)
    made = sum(chunk is not None for chunk in tokens._chunks)
    # The lexer and parser read a few tokens near the edit and the end, not 2,000.
    assert made <= 4
    assert list(tokens) == list(analyze_syntax(result.source).lex.tokens)


@pytest.mark.parametrize(
    "stretches",
    [
        [(0, 40), "new", (45, 100)],  # an edit: the earlier list around new items
        [(0, 40), "new", (41, 60), "eof"],
        [(0, 40), (40, 100)],  # nothing replaced
        [(10, 20), "new", (90, 100)],  # more replaced than kept: joined as slices
        [(50, 60), "new", (10, 20)],  # out of order
        ["new", (0, 100)],
        [(0, 30), "new", (30, 50), "eof", (60, 100)],
    ],
)
def test_unmoved_pieces_join_to_the_items_in_order(stretches):
    base = list(range(100))
    others = {"new": [-1, -2, -3], "eof": [-9]}
    pieces = []
    expected: list[int] = []
    for stretch in stretches:
        if isinstance(stretch, str):
            pieces += pieces_of(others[stretch], 0, len(others[stretch]))
            expected += others[stretch]
        else:
            pieces += pieces_of(base, *stretch)
            expected += base[stretch[0] : stretch[1]]
    joined = assemble(pieces, plus)
    assert type(joined) is list and joined == expected
    assert base == list(range(100))  # the earlier list is left as it was
