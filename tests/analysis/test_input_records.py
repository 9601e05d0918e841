"""The input-record key site reads the literal typed up to the cursor through
`record_scan.record_entries`, with the rules the site has always had (these
answers are the former text scanner's)."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.input_records import input_record_site

CALL = "use mod.app.weather\nweather.current("


def site_in(literal: str):
    """(field start, field end, parent, declared) relative to the literal's `{`."""
    offset = len(CALL) + literal.index("@@")
    source = CALL + literal.replace("@@", "")
    analysis = DocumentAnalysis(source, 1)
    found = input_record_site(
        source, analysis.regions, analysis.syntax.tokens, offset, analysis.delimiters
    )
    if found is None:
        return None
    start, end = found.field
    return (start - len(CALL), end - len(CALL), found.parent, sorted(found.declared))


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("{lo@@c", (1, 4, None, [])),  # the key being typed, to its end
        ("{a@@ ", (1, 2, None, [])),
        ("{x: {y: 1, @@", (11, 11, "x", ["y"])),  # one child level
        ("{x: {y: 1}, @@", (12, 12, None, ["x"])),  # back at the root
        ("{/* c */ @@", (9, 9, None, [])),
        ("{a: 1 /* c\n */ b@@", (15, 16, None, ["a"])),  # a comment's line break ends a value
        # Text the lexer drops (`:-` is no operator) still reads as the colon and value.
        ("{t:-5, @@", (7, 7, None, ["t"])),
        # A key is declared as written up to its colon.
        ("{a : 1, @@", (8, 8, None, ["a "])),
        ("{a b: 1, @@", (9, 9, None, ["a b"])),
        ("{a\n: 1, @@", (8, 8, None, ["a\n"])),
        # A cursor between CR and LF: the CR ends the value.
        ("{a: 1\r@@\n", (6, 6, None, ["a"])),
        ("{a: {b: 1}\r@@\n", (11, 11, None, ["a"])),
    ],
)
def test_key_positions(literal, expected):
    assert site_in(literal) == expected


@pytest.mark.parametrize(
    "literal",
    [
        "{let@@",  # reserved
        "{x:: {@@",  # the value began before the `{`: no child level
        '{a: "s\n, @@',  # an unterminated string
        "{a: 1 // c @@",  # in a comment
        "{@b: 1, @@",  # dropped text where a key goes
        "{a: ([)], @@",  # mismatched brackets
        "{a: 1, a: 2, @@",  # a repeated key
        "{a: {b: {@@",  # deeper than one child level
        "{a: @@",  # a value position
        "{a: 1}, @@",  # after the literal
    ],
)
def test_refused(literal):
    assert site_in(literal) is None
