"""Differential check of text sync and incremental analysis (issue 15).

A random sequence of ranged edits goes through the server's text store and
incremental document store; after every edit the answers must equal those
for a fresh open of the text the specification says the editor has. That
expected text comes from `spec_apply`, written independently of
`octoscript_lsp.text_sync` straight from the protocol's wording.

Used by `tests/sync/test_differential.py` (hypothesis) and by
`benchmarks/differential_sync.py` (a long run).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from octoscript_lsp.documents import DocumentStore
from octoscript_lsp.features import diagnostics, folding, formatting, semantic_tokens, symbols
from octoscript_lsp.text_sync import TextChange, TextStore

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BASES = [
    "",
    "let a = 1\nlet b = {x: 1,\n  y: 2}\nfn f(p) {\n    return p\n}\n",
    "let a = 1\r\nfn g(x) {\r\n    return x\r\n}\r\nlet b = g(a)\r\n",
    '/* block\ncomment */\nlet s = "te\u2028xt"\n// line \U0001f600\nlet t = s\n',
    'use mod.tool\nlet r = tool.call("x", "y")\n} stray\nlet z = r\n',
    'let e = "\U0001f600\U0001f642"\rlet f = 2\n\x85\f',
    "}\np*/=",
    "}/*\no*/+r",
] + sorted(path.read_text(encoding="utf-8") for path in FIXTURES.glob("*.octoscript"))
FRAGMENTS = [
    "\n",
    "\r\n",
    "\r",
    "\u2028",
    "\u2029",
    "\x85",
    "\f",
    "\v",
    "\x1c",
    "\U0001f600",
    "é",
    "/*",
    "*/",
    "//",
    '"',
    "\\",
    "'",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    " ",
    "x",
    "1",
    "=",
    "+",
    "|",
    ".",
    "let ",
    "fn f(a) {",
    "use mod.tool\n",
    "\\u{1F600}",
    "try ",
    "catch ",
    "if x {\n",
]

# ----------------------------------------------------------------- the spec

_TERMINATOR = re.compile(r"(\r\n|\r|\n)")


def _spec_lines(text: str) -> list[tuple[int, str]]:
    """(start offset, content without terminator) of each line."""
    pieces = _TERMINATOR.split(text)
    lines, offset = [], 0
    for index in range(0, len(pieces), 2):
        content = pieces[index]
        lines.append((offset, content))
        offset += len(content) + (len(pieces[index + 1]) if index + 1 < len(pieces) else 0)
    return lines


# Python codec and bytes per unit of each LSP position encoding: a column is
# found by encoding the line's text and slicing whole units off the front.
_CODECS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}
ENCODINGS = tuple(_CODECS)


def spec_column(content: str, offset: int, encoding: str = "utf-16") -> int:
    """How many units of `encoding` the first `offset` code points of a line
    take (a lone surrogate, which only JSON can send, as its code point)."""
    codec, unit = _CODECS[encoding]
    return len(content[:offset].encode(codec, "surrogatepass")) // unit


def spec_offset(text: str, line: int, character: int, encoding: str = "utf-16") -> int:
    """The protocol's meaning of (line, character): clamp past ends, and a
    column inside a code point (a cut UTF-8 sequence or surrogate pair,
    which decoding drops) rounds down."""
    lines = _spec_lines(text)
    if line >= len(lines):
        return len(text)
    start, content = lines[line]
    return start + content_offset(content, character, encoding)


def content_offset(content: str, character: int, encoding: str = "utf-16") -> int:
    """Code points of a line's text before column `character`: the code
    points whose units all come before it."""
    codec, unit = _CODECS[encoding]
    if content.isascii() or encoding == "utf-32":
        return min(character, len(content))
    used = 0
    for index, char in enumerate(content):
        used += len(char.encode(codec, "surrogatepass")) // unit
        if used > character:
            return index
    return len(content)


def as_json_decodes(text: str) -> str:
    """The text a JSON string of these code points decodes to: adjacent
    surrogate halves are one astral character."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def spec_position(text: str, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
    """(line, character) of a code-point offset that is not inside a line terminator."""
    lines = _spec_lines(text)
    for number, (start, content) in enumerate(lines):
        if offset <= start + len(content) or number == len(lines) - 1:
            return number, spec_column(content, offset - start, encoding)
    raise AssertionError("unreachable: the last line takes any offset")


def spec_apply(
    text: str, start: tuple[int, int], end: tuple[int, int], new: str, encoding: str = "utf-16"
) -> str:
    first, last = spec_offset(text, *start, encoding), spec_offset(text, *end, encoding)
    return text[:first] + new + text[last:]


def line_lengths(text: str, encoding: str = "utf-16") -> list[int]:
    return [spec_column(content, len(content), encoding) for _, content in _spec_lines(text)]


# ----------------------------------------------------------------- edits


@dataclass(frozen=True)
class Edit:
    start: tuple[int, int] | None  # None: a full-text change
    end: tuple[int, int] | None
    text: str

    def change(self) -> TextChange:
        return TextChange(self.text, self.start, self.end)

    def apply(self, text: str) -> str:
        if self.start is None or self.end is None:
            return self.text
        return spec_apply(text, self.start, self.end, self.text)


def _random_position(rng: random.Random, text: str) -> tuple[int, int]:
    lengths = line_lengths(text)
    line = rng.randrange(len(lengths) + 2)
    length = lengths[line] if line < len(lengths) else 0
    # Past the end of the line now and then; mid-pair positions come for free.
    return line, rng.randrange(length + 4)


def random_edit(rng: random.Random, text: str) -> Edit:
    inserted = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randrange(5)))
    if rng.random() < 0.03:
        return Edit(None, None, text + inserted)
    first, second = _random_position(rng, text), _random_position(rng, text)
    if rng.random() < 0.5:
        second = first  # a pure insertion
    start, end = min(first, second), max(first, second)
    return Edit(start, end, inserted)


# ----------------------------------------------------------------- the check


def answers(store: DocumentStore, uri: str) -> dict:
    state = store.cached(uri)
    assert state is not None
    analysis, positions = state.analysis, state.positions
    if analysis.too_large is not None:
        return {"too_large": str(analysis.too_large)}
    try:
        formatted: object = formatting.format_document(analysis, positions)
    except formatting.FormattingRefused as refusal:
        formatted = str(refusal)
    return {
        "diagnostics": diagnostics.syntax_diagnostics(analysis, positions),
        "symbols": json.loads(symbols.document_symbols_wire(analysis, positions)),
        "semantic_tokens": semantic_tokens.full(analysis).data,
        # What the server answers: the last answer's layout spliced where an
        # edit allows (a fresh open has none, so it lays the answer out anew).
        "semantic_tokens_carried": semantic_tokens.full_items(analysis),
        "folding": folding.folding_ranges(analysis),
        "formatting": formatted,
    }


class Divergence(AssertionError):
    pass


class EditedDocument:
    """One document edited through the server's stores, checked against fresh opens."""

    URI = "file:///differential.octoscript"

    def __init__(self, base: str) -> None:
        self.texts = TextStore()
        self.documents = DocumentStore(self.texts.text)
        self.expected = base
        self.version = 1
        self.texts.open(self.URI, 1, base)
        self.documents.track(self.URI, 1)
        self.documents.cached(self.URI)

    def apply(self, edit: Edit) -> None:
        self.version += 1
        self.expected = edit.apply(self.expected)
        assert self.texts.change(self.URI, self.version, [edit.change()])
        self.documents.track(self.URI, self.version)

    def check(self) -> None:
        held = self.texts.text(self.URI)
        if held != self.expected:
            raise Divergence(f"text {held!r} != spec {self.expected!r}")
        fresh = DocumentStore(lambda uri: self.expected)
        fresh.track(self.URI, self.version)
        incremental, expected = answers(self.documents, self.URI), answers(fresh, self.URI)
        for key, value in expected.items():
            if incremental.get(key) != value:
                raise Divergence(f"{key} differs for {self.expected!r}")


def run_sequence(base: str, edits: list[Edit]) -> None:
    document = EditedDocument(base)
    for edit in edits:
        document.apply(edit)
        document.check()


def random_sequence(rng: random.Random, base: str, count: int) -> list[Edit]:
    text, edits = base, []
    for _ in range(count):
        edit = random_edit(rng, text)
        edits.append(edit)
        text = edit.apply(text)
    return edits
