"""Random checks of the authoring features against fresh analyses.

Extends `tests/sync/differential.py` (which covers diagnostics, outline,
semantic tokens, folding and formatting) to every other feature: after each
random edit the incremental store must answer range formatting, inlay
hints, code actions, completion (with prefill), hover, signature help,
navigation, code lenses and the carried semantic-token / outline caches
exactly as a fresh open of the same text does. Per text it also checks
properties that need no second analysis:

- range formatting: edits lie inside the document; applied, the text
  formats to the whole-document result, and formatting every statement's
  range top to bottom yields the whole-document result (line endings
  aside);
- quick fixes: edit ranges lie inside the document and start <= end;
  applied to a valid text, the result still checks.

Used by `tests/robustness/test_authoring_fuzz.py` (hypothesis, short) and
`benchmarks/fuzz_authoring.py` (a long run).
"""

from __future__ import annotations

import json
import random

from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.documents import DocumentStore
from octoscript_lsp.features import (
    code_actions,
    formatting,
    hover,
    inlay_hints,
    navigation,
    semantic_tokens,
    signature,
    symbols,
    tool_calls,
)
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.syntax.check import check_source
from octoscript_lsp.text_sync import TextStore
from tests.features.helpers import complete
from tests.lsp.catalog_data import MODULES, TOOLS
from tests.sync.differential import BASES, FRAGMENTS, Edit, random_edit, spec_apply

URI = "file:///authoring.octoscript"

AUTHORING_BASES = [
    *BASES,
    'use mod.tool\ntool.call("text.ecko", "x")\nlet j = tool.call_json("svc.lokup", {})\n',
    "use mod.app.weather\nlet w = weather.curent({locaton: 1})\nweather.current({})\n",
    'use mod.app.report\nfn go() {\n    report.build({\n        title: "t" // hi\n    })\n}\n',
    'use mod.app.weather\r\nlet w = weather.current({\r\n    units: "c"})\r\n',
    "fn f(a, b) {\n    return a\n}\nlet x = f(1, 2)\nf(a, b)\nvar y = 'q'\nlet z = [1, 2,]\n",
    'json.parse("1")\nmath.sqrt(2)\ntool.call("x", \'y\')\n',
]
AUTHORING_FRAGMENTS = [
    *FRAGMENTS,
    "weather.",
    "weather.current(",
    "report.build({",
    "({})",
    "tool.call(",
    '"text.',
    "f(1, 2)",
    "var ",
    "'",
    ",)",
    ".await()",
    "locaton: ",
    "\t",
]


def catalogs() -> CatalogStore:
    store = CatalogStore()
    store.apply_initialization_options(
        {"octoscript": {"toolCatalog": TOOLS, "moduleCatalog": MODULES}}
    )
    return store


def _outcome(call, *args):
    """The answer, or the refusal's type and text (a crash propagates)."""
    try:
        return call(*args)
    except (formatting.FormattingRefused, navigation.Refused) as refusal:
        return (type(refusal).__name__, str(refusal))


def probe_offsets(rng: random.Random, source: str, count: int = 4) -> list[int]:
    return sorted(rng.randrange(len(source) + 1) for _ in range(count))


def feature_answers(state, store: CatalogStore, offsets: list[int]) -> dict:
    """Every offset-based answer of one open document, as comparable values."""
    analysis, positions = state.analysis, state.positions
    if analysis.too_large is not None:
        return {"too_large": str(analysis.too_large)}
    size = len(analysis.source)
    out: dict = {
        "semantic_carried": semantic_tokens.full(analysis).data,
        "symbols_carried": json.loads(symbols.document_symbols_wire(analysis, positions)),
        "inlay_all": inlay_hints.inlay_hints(analysis, positions, 0, size, store),
        "actions_all": code_actions.code_actions(analysis, positions, URI, 0, size, store),
        "lenses": tool_calls.code_lenses(analysis, positions, store),
        "tool_calls": tool_calls.tool_calls_result(analysis, store, URI),
    }
    pairs = list(zip(offsets, offsets[1:], strict=False))
    for start, end in pairs:
        key = f"{start}-{end}"
        out["range_fmt" + key] = _outcome(formatting.format_range, analysis, positions, start, end)
        out["inlay" + key] = inlay_hints.inlay_hints(analysis, positions, start, end, store)
        out["actions" + key] = code_actions.code_actions(
            analysis, positions, URI, start, end, store
        )
    for offset in offsets:
        key = str(offset)
        out["complete" + key] = complete(analysis, positions, offset, store, True)
        out["hover" + key] = hover.hover(analysis, positions, offset, store)
        out["signature" + key] = signature.signature_help(analysis, offset, store)
        out["definition" + key] = navigation.definition(analysis, positions, URI, offset, store)
        out["references" + key] = _outcome(
            navigation.references, analysis, positions, URI, offset, True
        )
        out["highlights" + key] = _outcome(navigation.highlights, analysis, positions, offset)
    return out


class Divergence(AssertionError):
    pass


# ----------------------------------------------------------------- properties


def _inside(positions: PositionMap, edit: types.TextEdit) -> tuple[int, int]:
    """Offsets of an edit's range, which must be exact positions in order."""
    start = positions.strict_offset(edit.range.start)
    end = positions.strict_offset(edit.range.end)
    if start is None or end is None or end < start:
        raise Divergence(f"edit range {edit.range} is not inside the text in order")
    return start, end


def _applied(source: str, positions: PositionMap, edits: list[types.TextEdit]) -> str:
    spans = sorted((_inside(positions, edit), edit.new_text) for edit in edits)
    for (_, end), (next_span, _) in zip(spans, spans[1:], strict=False):
        if next_span[0] < end:
            raise Divergence("overlapping edits")
    for (start, end), text in reversed(spans):
        source = source[:start] + text + source[end:]
    return source


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")


def _blank_lines_trimmed(text: str) -> str:
    """Lines outside statements keep their spaces under range formatting."""
    return "\n".join(line.rstrip(" \t\f") for line in text.split("\n")).rstrip()


def _only_statements(analysis: DocumentAnalysis) -> bool:
    """No comment or text outside the statements (range formatting leaves those)."""
    source, nodes = analysis.source, analysis.syntax.parsed.tree.children
    if not nodes:
        return False
    # The formatter re-indents the lines of a block comment (as the
    # reference does); range formatting leaves lines between statements.
    comments = analysis.syntax.lex.comments
    if any("\n" in source[start:end] for start, end in comments):
        return False
    if source[: nodes[0].start].strip() or source[nodes[-1].end :].strip():
        return False
    # Nor a comment on a line of its own (range formatting leaves that line).
    for start, _ in comments:
        line_start = source.rfind("\n", 0, start) + 1
        line_end = source.find("\n", start) % (len(source) + 1)
        if not any(node.start <= line_end and line_start <= node.end for node in nodes):
            return False
    return True


def check_range_formatting(source: str, offsets: list[int]) -> None:
    analysis = DocumentAnalysis(source)
    positions = PositionMap(source)
    try:
        whole = formatting.canonical_text(analysis)
    except formatting.FormattingRefused:
        whole = None
    for start, end in [(0, len(source)), *zip(offsets, offsets[1:], strict=False)]:
        try:
            edits = formatting.format_range(analysis, positions, start, end)
        except formatting.FormattingRefused:
            continue
        if whole is None:
            raise Divergence(f"range formatting answered for unformattable {source!r}")
        after = _applied(source, positions, edits)
        if edits and formatting.canonical_text(DocumentAnalysis(after)) != whole:
            raise Divergence(f"range {start}-{end} of {source!r} does not format like the whole")
        if (start, end) == (0, len(source)) and _only_statements(analysis):
            if _blank_lines_trimmed(_lf(after)) != _blank_lines_trimmed(whole):
                raise Divergence(f"whole-range formatting of {source!r} gave {after!r}")
    if whole is None or "\r" in source or not _only_statements(analysis):
        return
    # Statement by statement, top to bottom, reaches the whole-document text.
    text = source
    for index in range(len(analysis.syntax.parsed.tree.children)):
        current = DocumentAnalysis(text)
        nodes = current.syntax.parsed.tree.children
        if index >= len(nodes):
            break
        node = nodes[index]
        edits = formatting.format_range(current, PositionMap(text), node.start, node.start)
        text = _applied(text, PositionMap(text), edits)
    if _blank_lines_trimmed(text) != _blank_lines_trimmed(whole):
        raise Divergence(f"statement-wise range formatting of {source!r} gave {text!r}")


def check_quick_fixes(source: str, store: CatalogStore, offsets: list[int]) -> None:
    analysis = DocumentAnalysis(source)
    positions = PositionMap(source)
    valid = check_source(source).valid
    everything = code_actions.code_actions(analysis, positions, URI, 0, len(source), store)
    all_hints = inlay_hints.inlay_hints(analysis, positions, 0, len(source), store)
    for start, end in [(0, len(source)), *zip(offsets, offsets[1:], strict=False)]:
        hints = inlay_hints.inlay_hints(analysis, positions, start, end, store)
        inside = [hint for hint in all_hints if start <= positions.offset(hint.position) <= end]
        if hints != inside:
            raise Divergence(f"inlay hints of {start}-{end} in {source!r} differ from the whole")
        found = code_actions.code_actions(analysis, positions, URI, start, end, store)
        if any(action not in everything for action in found):
            raise Divergence(f"an action of {start}-{end} in {source!r} is not offered for all")
        for action in found:
            edits = action.edit.changes[URI]
            after = _applied(source, positions, edits)
            if valid and not check_source(after).valid:
                raise Divergence(f"fix {action.title!r} breaks valid {source!r}: {after!r}")


# ----------------------------------------------------------------- sequences


class AuthoredDocument:
    def __init__(self, base: str, store: CatalogStore) -> None:
        self.store = store
        self.texts = TextStore()
        self.documents = DocumentStore(self.texts.text)
        self.expected = base
        self.version = 1
        self.texts.open(URI, 1, base)
        self.documents.track(URI, 1)
        self.documents.cached(URI)

    def apply(self, edit: Edit) -> None:
        self.version += 1
        self.expected = edit.apply(self.expected)
        assert self.texts.change(URI, self.version, [edit.change()])
        self.documents.track(URI, self.version)

    def check(self, rng: random.Random, properties: bool = True) -> None:
        text = self.expected
        if self.texts.text(URI) != text:
            raise Divergence(f"text differs from the spec for {text!r}")
        offsets = probe_offsets(rng, text)
        fresh = DocumentStore(lambda uri: text)
        fresh.track(URI, self.version)
        incremental = feature_answers(self.documents.cached(URI), self.store, offsets)
        expected = feature_answers(fresh.cached(URI), self.store, offsets)
        for key, value in expected.items():
            if incremental.get(key) != value:
                raise Divergence(f"{key} differs for {text!r}")
        if properties:
            check_range_formatting(text, offsets)
            check_quick_fixes(text, self.store, offsets)


def random_authoring_edit(rng: random.Random, text: str) -> Edit:
    edit = random_edit(rng, text)
    if rng.random() < 0.5 and edit.start is not None:
        inserted = "".join(rng.choice(AUTHORING_FRAGMENTS) for _ in range(rng.randrange(4)))
        return Edit(edit.start, edit.end, inserted)
    return edit


def run_random(rng: random.Random, base: str, count: int, store: CatalogStore) -> None:
    document = AuthoredDocument(base, store)
    document.check(rng)
    for _ in range(count):
        document.apply(random_authoring_edit(rng, document.expected))
        document.check(rng)


__all__ = ["AUTHORING_BASES", "catalogs", "run_random", "spec_apply"]
