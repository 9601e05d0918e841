"""Lexical-editor scenarios re-checked against the reference server's behaviour.

Each test names the behaviour in its own words; the scenarios are written
for this project (positions, truncation, bare carriage returns, ...).
"""

from __future__ import annotations

from lsprotocol import types

from octoscript_lsp.features import diagnostics, signature
from tests.features.helpers import complete

from .helpers import doc, labels


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


# ---------------------------------------------------------------- positions


def test_request_positions_treat_a_bare_carriage_return_as_a_line_break():
    positions = doc("ab\rcd").positions
    assert positions.strict_offset(at(0, 2)) == 2
    # Line 0 is only `ab`: a column past it is no position at all.
    assert positions.strict_offset(at(0, 3)) is None
    assert positions.strict_offset(at(1, 0)) == 3
    assert positions.strict_offset(at(1, 2)) == 5
    assert positions.strict_offset(at(1, 3)) is None


def test_mixed_line_endings_number_lines_like_the_client():
    positions = doc("ab\r\rc\r\nd\r").positions
    expected = {0: (0, 0), 2: (0, 2), 3: (1, 0), 4: (2, 0), 5: (2, 1), 7: (3, 0), 9: (4, 0)}
    for offset, (line, character) in expected.items():
        assert positions.position(offset) == at(line, character)
    assert positions.strict_offset(at(2, 1)) == 5
    assert positions.strict_offset(at(2, 2)) is None  # the CR of CRLF is no column
    assert positions.strict_offset(at(4, 0)) == 9
    assert positions.strict_offset(at(4, 1)) is None


def test_crlf_and_surrogate_pairs_are_unchanged():
    positions = doc("\U0001f642x\r\ny").positions
    assert positions.strict_offset(at(0, 2)) == 1
    assert positions.strict_offset(at(0, 1)) is None  # inside the pair
    assert positions.strict_offset(at(0, 4)) is None  # past the line, not the CR
    assert positions.strict_offset(at(1, 0)) == 4
    assert positions.strict_offset(at(1, 1)) == 5
    assert positions.position(5) == at(1, 1)


def test_syntax_diagnostics_keep_lf_only_lines_after_a_bare_carriage_return():
    d = doc("a\rb\r")
    found = diagnostics.syntax_diagnostics(d.analysis, d.positions)
    starts = [(item.range.start.line, item.range.start.character) for item in found]
    # Both bare CRs are reported on the checker's single LF line.
    assert starts == [(0, 1), (0, 3)]


def test_signature_help_after_a_bare_carriage_return_uses_client_lines():
    d = doc("fn pair(a, b) {\nnil\n}\npair(1,\r")
    # The client sees the cursor at the start of a fifth line.
    offset = d.positions.strict_offset(at(4, 0))
    assert offset == len(d.source)
    found = signature.signature_help(d.analysis, offset, d.catalogs)
    assert found.signatures[0].label == "pair(a, b)"
    assert found.active_parameter == 1
    # The LF-counted column past the CR is not a position on the CR's line.
    assert d.positions.strict_offset(at(3, 8)) is None


def test_completion_at_an_lf_column_beyond_a_bare_carriage_return_is_empty():
    d = doc("let alpha = 1\nal\r")
    assert d.positions.strict_offset(at(1, 3)) is None
    answer = complete(d.analysis, d.positions, None, d.catalogs)
    assert (answer.is_incomplete, labels(answer)) == (False, [])
    offset = d.positions.strict_offset(at(1, 2))
    assert labels(complete(d.analysis, d.positions, offset, d.catalogs)) == ["alpha"]
