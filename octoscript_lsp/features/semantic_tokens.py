"""textDocument/semanticTokens: full and range, classified from tokens and the index.

Classification has three layers, later ones winning:

1. the syntax tree gives structural roles (`use` path segments, definitions,
   members after `.`, record keys, references, the contextual `catch`);
2. the lexical index (built for broken source too) gives every definition and
   resolved reference its binding kind: import -> namespace, `fn` -> function,
   parameters -> parameter, `let`/`for` -> variable;
3. keywords, reserved words, literals, operators and comments come straight
   from the tokens and the lexer's comment spans.

From scratch everything is one pass over the tree plus one pass over the
tokens; positions are encoded incrementally so long lines stay linear.
Between versions of a document (`carried`: through the analysis's `reuse`,
in the per-statement memo the parser's map of kept statements advances),
each top-level statement the parser kept keeps its classified and encoded
numbers, relative to itself, while the meaning of the top-level bindings it
reads from outside is unchanged; an answer then joins those fragments and
works out only each statement's first two numbers (see `_placed`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import LexicalIndex, Symbol
from ..limits import MAX_SEMANTIC_VISIBLE_LOOKUPS
from ..syntax.lexer import starts_in_initial_state
from ..syntax.statements import (
    AFTER_TOKEN,
    EMPTY_MEMO,
    FIRST_TOKEN,
    carried_value,
    children_of,
    memo_replacing,
    walk_statements,
)
from ..syntax.tokens import IDENT, RESERVED_WORDS
from ..syntax.tokens import NUMBER as NUMBER_TOKEN
from ..syntax.tokens import OPERATOR as OPERATOR_TOKEN
from ..syntax.tokens import STRING as STRING_TOKEN
from ..syntax.tree import SYMBOL_IMPORT, SymbolKind
from .positions import UTF16, PositionEncoding
from .semantic_encoding import Encoder, Fragment, Item, encode, encode_fragment
from .semantic_layout import (
    Layout,
    encode_segments,
    in_order,
    index_cut_of,
    recorded_whole_before,
    splice,
)
from .semantic_roles import (
    DECLARATION,
    KEYWORD,
    NUMBER,
    PROPERTY,
    PUNCTUATION_OPERATORS,
    STRING,
    SYMBOL_TYPES_BY_NAME,
    apply_index_roles,
    comment_items,
    member_token_role,
    merge,
    merge_flat,
    occurrence_map,
    token_items,
    tree_roles,
)
from .semantic_roles import LEGEND as LEGEND  # the server's and tests' names for them
from .semantic_roles import OPERATOR as OPERATOR
from .semantic_roles import TOKEN_MODIFIERS as TOKEN_MODIFIERS
from .semantic_roles import TOKEN_TYPES as TOKEN_TYPES
from .wire import WireText, integer_items


def full(
    analysis: DocumentAnalysis, carried: bool = False, encoding: PositionEncoding = UTF16
) -> types.SemanticTokens:
    """Every semantic token of the document (`carried`: see `classify`),
    columns and lengths in `encoding`."""
    items = classify(analysis, carried)
    return types.SemanticTokens(data=encode(analysis.source, items, encoding))


def full_wire(
    analysis: DocumentAnalysis, carried: bool = False, encoding: PositionEncoding = UTF16
) -> WireText:
    """`full`'s answer as JSON text: the encoded numbers are most of the answer.

    With `carried` each top-level statement's numbers come already rendered
    from an earlier version when the parser kept it and the bindings it
    reads from outside are unchanged; only its first token's deltas are
    worked out.
    """
    return WireText('{"data":[' + full_items(analysis, carried, encoding) + "]}")


def full_items(
    analysis: DocumentAnalysis, carried: bool = False, encoding: PositionEncoding = UTF16
) -> str:
    """`full`'s numbers as the comma-separated items of a JSON array.

    With `carried`, the last answer's layout (handed on through
    `analysis.reuse`) is spliced when only a few statements changed
    (`_spliced`)."""
    if not carried:
        return integer_items(encode(analysis.source, classify(analysis), encoding))
    reuse = analysis.reuse
    spliced = _spliced(analysis, reuse.left(_LAYOUT), encoding)
    if spliced is not None:
        reuse.hand_on(_LAYOUT, spliced)
        return spliced.text[1:]
    reads: list[tuple[bool, int]] = []
    placed = _placed(analysis, reads)
    if placed is None:
        reuse.hand_on(_LAYOUT, None)
        return integer_items(encode(analysis.source, classify(analysis), encoding))
    layout = _assemble(analysis, placed, reads, encoding)
    reuse.hand_on(_LAYOUT, layout)
    return layout.text[1:]


def range_tokens(
    analysis: DocumentAnalysis,
    start_offset: int,
    end_offset: int,
    carried: bool = False,
    encoding: PositionEncoding = UTF16,
) -> types.SemanticTokens:
    """The semantic tokens intersecting [start_offset, end_offset] (still absolute-encoded)."""
    items = [
        item
        for item in classify(analysis, carried)
        if item[0] < end_offset and item[1] > start_offset
    ]
    return types.SemanticTokens(data=encode(analysis.source, items, encoding))


def classify(analysis: DocumentAnalysis, carried: bool = False) -> list[Item]:
    """Classified spans in source order, block comments already split per line.

    With `carried` each top-level statement the parser kept keeps its
    classification from the earlier version that made it (the memo handed
    on through `analysis.reuse`), as long as the top-level bindings its free
    references resolve to mean the same; this version's memo is handed on.
    Without it (or when that rule cannot be trusted, see `_placed`)
    everything is classified from the tree and the index.
    """
    syntax = analysis.syntax
    if syntax is None:
        return []
    placed = _placed(analysis) if carried else None
    if placed is not None:
        return _placed_items(analysis, placed)
    index = analysis.completion_index
    tokens = syntax.tokens
    roles = tree_roles([syntax.parsed.tree], tokens, occurrence_map(index))[0]
    apply_index_roles(roles, index)
    return merge(token_items(tokens, roles), comment_items(analysis.source, syntax.lex.comments))


# ------------------------------------------------------------- per statement

# One token of a statement, offsets relative to the statement's first token:
# (start, end, structural type or -1, modifiers, member receiver start or
# -1, whether the parser resolves a reference there, the kind of binding
# the parser defines there as its place in `_KINDS` or -1). A definition is
# classified from that kind alone while the index kept every occurrence: it
# is one whatever else the document holds. A statement's entries lie end to
# end in one tuple (`_ENTRY_SIZE` values each), as its items do
# (`semantic_encoding.Flat`): numbers only, which the cyclic collector stops
# tracking.
_Entry = tuple[int, int, int, int, int, bool, int]
_ENTRY_SIZE = 7
_KINDS = tuple(SymbolKind)
_KIND_CODES = {kind._name_: code for code, kind in enumerate(_KINDS)}  # see SYMBOL_TYPES_BY_NAME
# What a top-level binding means to the statements after it: its kind and,
# for an import, its `use` path (which decides std members' `readonly`).
_Binding = tuple[SymbolKind, tuple[str, ...] | None]


class _Shape(NamedTuple):
    """What a statement's text alone decides (offsets relative to its first
    token). Named tuples here and for `_Statement`: a first answer makes
    one of each per top-level statement, and a frozen dataclass's
    `__init__` sets each field through `object.__setattr__`."""

    entries: tuple  # its `_Entry`s, flat
    imports: tuple[tuple[int, tuple[str, ...]], ...]  # (binding start, `use` path)
    exports: tuple[tuple[str, _Binding], ...]  # its top-level bindings, in order
    balanced: bool  # it closes every scope it opens
    comments: tuple[Item, ...]  # pieces of the comments lying wholly inside it
    comment_count: int  # how many comments those pieces come from


@dataclass(slots=True)
class _Rendered:
    """A statement's classified tokens; valid while each of its free
    references (`free`) resolves to a binding meaning `bindings`."""

    free: tuple[str, ...]
    bindings: tuple[_Binding | None, ...]
    items: tuple[int, ...]  # flat, relative to the statement's first token; never empty
    encoded: Fragment | None = None  # made by the first answer that needs it
    encoded_in: PositionEncoding | None = None  # the encoding `encoded` counts in


class _Statement(NamedTuple):
    shape: _Shape
    rendered: _Rendered | None  # None: nothing to colour
    # Whether `rendered` may serve later versions: not when the index's
    # occurrence budget ran out inside the statement.
    lasting: bool
    # Its classification when the budget ran out before it (nothing resolved,
    # which its text alone decides), once needed.
    unresolved: _Rendered | None = None


# Each top-level statement's `_Statement`, in the per-statement memo
# (`statements.StatementMemo`) this document's versions hand on (`analysis.reuse`).
_ROLES = "semantic-token roles"
# The layout of the last full answer (`semantic_layout.Layout`).
_LAYOUT = "semantic-token layout"
# (offset of its first token, offset where the next statement starts, its
# shape, its classification in this version).
_Place = tuple[int, int, _Shape, _Rendered | None]


def _placed(
    analysis: DocumentAnalysis, reads: list[tuple[bool, int]] | None = None
) -> list[_Place] | None:
    """Every top-level statement with its classification, reused where valid.

    A statement's classification depends on its text plus the bindings its
    free references (those no binding inside it resolves) resolve to, and
    those are the last top-level bindings of their names made by the
    statements before it. That holds while no earlier statement leaves a
    scope open (otherwise None: the caller classifies from scratch). Where
    the index ran out of occurrences, the statements before the last one it
    kept follow that rule, the ones after it have nothing resolved (their
    text alone decides), and the one holding it is classified afresh.
    A statement the parser kept has the text it had (`walk_statements`
    hands its earlier record). `reads` gets, per statement, whether its
    first token was scanned from the lexer's initial state and where the
    token after it ends (the layout finds an edit's statements by them).
    """
    syntax = analysis.syntax
    if syntax is None or syntax.lex.token_limit_offset is not None:
        return None
    index = analysis.completion_index
    cut = index.last_occurrence() if index.truncated else len(analysis.source)
    source, lex, tokens = analysis.source, syntax.lex, syntax.tokens
    units = syntax.parsed.units
    last_token, last_unit = len(tokens) - 1, len(units) - 1
    placed: list[_Place] = []
    top: dict[str, _Binding] = {}  # the last top-level binding of each name so far
    import_paths: dict[int, tuple[str, ...]] = {}
    resolve = _Resolver(index)

    def visit(position: int, first: int, after: int, known: _Statement | None) -> _Statement:
        base = tokens[first].start
        end = tokens[min(after, last_token)].start
        if reads is not None:
            reads.append((starts_in_initial_state(lex, first), tokens[min(after, last_token)].end))
        shape = known.shape if known is not None else _shape(analysis, position, base, end)
        if not shape.balanced and position != last_unit:
            raise _OpenScope
        for binding, path in shape.imports:
            import_paths[binding + base] = path
        statement, rendered = _classified(
            known, shape, base, end, cut, source, resolve, top, import_paths
        )
        placed.append((base, end, shape, rendered))
        for name, binding in shape.exports:
            top[name] = binding
        return statement

    try:
        earlier = analysis.reuse.left(_ROLES) or EMPTY_MEMO
        memo = walk_statements(units, syntax.parsed.unit_offsets, earlier, visit)
    except _OpenScope:
        return None
    analysis.reuse.hand_on(_ROLES, memo)
    return placed


class _OpenScope(Exception):
    """A statement before the last leaves a scope open (see `_placed`)."""


def _spliced(
    analysis: DocumentAnalysis, layout: Layout | None, encoding: PositionEncoding = UTF16
) -> Layout | None:
    """The last answer (`layout`) with only the statements an edit touched
    classified and encoded again, when that equals what `_placed` and
    `_assemble` make (`semantic_layout.splice` says when); None otherwise."""
    syntax = analysis.syntax
    if layout is None or syntax is None or syntax.lex.token_limit_offset is not None:
        return None
    if layout.encoding is not encoding:
        return None
    source, index = analysis.source, analysis.completion_index
    resolve = _Resolver(index)
    # This version's statement records: the kept ones' as they are, the
    # edited ones' (`records`) anew; only those are looked at.
    earlier = analysis.reuse.left(_ROLES) or EMPTY_MEMO
    records: dict[int, _Statement] = {}

    def classify_one(position: int, base: int, end: int, cut: int, top, imports):
        known = carried_value(earlier, position)
        shape = known.shape if known is not None else _shape(analysis, position, base, end)
        if shape.exports != layout.shapes[position].exports:
            return None  # later statements may read other bindings
        for binding, path in shape.imports:
            imports.found[binding + base] = path
        statement, rendered = _classified(
            known, shape, base, end, cut, source, resolve, top, imports
        )
        records[position] = statement
        return shape, rendered

    spliced = splice(
        layout,
        syntax,
        source,
        index,
        classify_one,
        lambda base, rendered: _fragment(source, base, rendered, encoding),
        comment_items,
    )
    if spliced is not None:
        analysis.reuse.hand_on(_ROLES, memo_replacing(earlier, syntax.parsed.unit_offsets, records))
    return spliced


def _classified(
    known: _Statement | None,
    shape: _Shape,
    base: int,
    end: int,
    cut: int,
    source: str,
    resolve: _Resolver,
    top,
    import_paths,
) -> tuple[_Statement, _Rendered | None]:
    """A statement's record and its classification in this version: the
    known one while valid (see `_placed`), else classified again."""
    statement = known
    rendered = known.rendered if known is not None else None
    if base > cut:
        if known is None or known.unresolved is None:
            unresolved = _render(shape, base, end, source, _UNRESOLVED, top, import_paths)
            lasting = known is not None and known.lasting
            statement = _Statement(shape, rendered, lasting, unresolved)
        return statement, statement.unresolved
    if (
        known is None
        or not known.lasting
        or end > cut  # the budget ran out inside it
        or (
            rendered is not None
            and rendered.free
            and tuple(map(top.get, rendered.free)) != rendered.bindings
        )
    ):
        rendered = _render(shape, base, end, source, resolve, top, import_paths)
        statement = _Statement(shape, rendered, end <= cut, known and known.unresolved)
    return statement, rendered


class _Unresolved:
    """A resolver past the occurrence budget: nothing resolves."""

    def __call__(self, name: str, offset: int) -> Symbol | None:
        return None

    def definition(self, kind: SymbolKind, offset: int) -> SymbolKind | None:
        return None


_UNRESOLVED = _Unresolved()


class _Resolver:
    """The binding a reference resolves to: the one visible there
    (`index.visible`) while few are asked, as after a keystroke; one table
    of every occurrence once many are (the first answer, a large paste).
    An index that ran out of occurrences answers from what it recorded
    (`occurrence_at`, then the table): only that is exact then."""

    __slots__ = ("index", "lookups", "table", "truncated", "whole_before")

    def __init__(self, index: LexicalIndex) -> None:
        self.index = index
        self.lookups = 0
        self.table: dict[int, Symbol] | None = None
        self.truncated = index.truncated
        self.whole_before = recorded_whole_before(index)

    def definition(self, kind: SymbolKind, offset: int) -> SymbolKind | None:
        """The kind of the binding the parser defines at `offset` as the index
        has it (none once its occurrence budget ran out before it)."""
        if not self.truncated or offset < self.whole_before:
            return kind
        symbol = self._recorded(offset)
        return symbol.kind if symbol is not None and symbol.start == offset else None

    def __call__(self, name: str, offset: int) -> Symbol | None:
        if self.truncated:
            return self._recorded(offset)
        if self.table is None:
            self.lookups += 1
            if self.lookups <= MAX_SEMANTIC_VISIBLE_LOOKUPS:
                return self.index.visible(name, offset)
            self.table = occurrence_map(self.index)
        return self.table.get(offset)

    def _recorded(self, offset: int) -> Symbol | None:
        """The symbol of the occurrence the index recorded at `offset`."""
        if self.table is None:
            self.lookups += 1
            if self.lookups <= MAX_SEMANTIC_VISIBLE_LOOKUPS:
                found = self.index.occurrence_at(offset)
                return found.symbol if found is not None and found.start == offset else None
            self.table = occurrence_map(self.index)
        return self.table.get(offset)


def _shape(analysis: DocumentAnalysis, position: int, base: int, end: int) -> _Shape:
    """What one statement's text decides: structural roles as `tree_roles`
    finds them, definitions, references and comments, all relative."""
    syntax = analysis.syntax
    tokens, parsed = syntax.tokens, syntax.parsed
    units = parsed.units
    first, after = units[position][FIRST_TOKEN], units[position][AFTER_TOKEN]
    children_start, children_end = children_of(units, position)
    roles, members, imported = tree_roles(
        parsed.tree.children[children_start:children_end], tokens, {}
    )
    receivers: dict[int, int] = {}
    for node in members:
        if node.token >= 0 and node.children:
            receiver = node.children[0]
            if receiver.kind == "name" and roles.get(tokens[node.token].start) == (PROPERTY, 0):
                receivers[tokens[node.token].start] = receiver.start
    import_paths = {binding - base: path for binding, path in imported.items()}
    # Its bindings and references as the lexical summary has them (the one
    # replay of a statement's scope events).
    summary = analysis.statement_summaries[position][1]
    symbols = summary.symbols
    definitions = {symbol.start: _KIND_CODES[symbol.kind._name_] for symbol in symbols}
    references = {start for start, _ in summary.sites}
    exports = [
        (symbols[number].name, symbols[number].start, symbols[number].kind)
        for number in summary.tops
    ]
    # The loop below runs once per token of the document on a first answer:
    # its lookups are bound to locals, and membership tests (no call) come
    # before the few lookups that find something.
    ident, string, number, operator = IDENT, STRING_TOKEN, NUMBER_TOKEN, OPERATOR_TOKEN
    role_of = roles.get
    entries: list = []
    for token in tokens[first:after]:
        kind = token.kind
        if kind is ident:
            at = token.start
            start = at - base
            role = role_of(at)
            if role is not None:
                token_type, modifiers = role
            elif token.text in RESERVED_WORDS:
                token_type, modifiers = KEYWORD, 0
            else:
                token_type, modifiers = -1, 0
            entries += (
                start,
                token.end - base,
                token_type,
                modifiers,
                receivers[at] - base if at in receivers else -1,
                start in references,
                definitions[start] if start in definitions else -1,
            )
        elif kind is string:
            entries += (token.start - base, token.end - base, STRING, 0, -1, False, -1)
        elif kind is number:
            entries += (token.start - base, token.end - base, NUMBER, 0, -1, False, -1)
        elif kind is operator and token.text not in PUNCTUATION_OPERATORS:
            entries += (token.start - base, token.end - base, OPERATOR, 0, -1, False, -1)
    owned = _owned_comments(syntax.lex.comments, base, end)
    return _Shape(
        tuple(entries),
        tuple(import_paths.items()),
        tuple(
            (name, (kind, import_paths.get(start) if kind is SYMBOL_IMPORT else None))
            for name, start, kind in exports
        ),
        summary.balanced,
        tuple(
            (start - base, stop - base, token_type, modifiers)
            for start, stop, token_type, modifiers in comment_items(analysis.source, owned)
        ),
        len(owned),
    )


def _owned_comments(comments: list[tuple[int, int]], base: int, end: int) -> list[tuple[int, int]]:
    """The comments starting at or after `base` that end by `end`, in order."""
    position = bisect_left(comments, base, key=_span_start)
    owned: list[tuple[int, int]] = []
    while position < len(comments) and comments[position][1] <= end:
        owned.append(comments[position])
        position += 1
    return owned


def _span_start(span: tuple[int, int]) -> int:
    return span[0]


def _render(
    shape: _Shape,
    base: int,
    end: int,
    source: str,
    resolve: _Resolver | _Unresolved,
    top: dict[str, _Binding],
    import_paths: dict[int, tuple[str, ...]],
) -> _Rendered | None:
    """Classify one statement's tokens through the index and encode them."""
    free: list[str] = []
    symbols: dict[int, Symbol] = {}  # by relative start, for member receivers
    items: list[int] = []
    entries = iter(shape.entries)
    for start, stop, token_type, modifiers, receiver, referenced, defined in zip(
        *(entries,) * _ENTRY_SIZE, strict=True
    ):
        if referenced:
            name = source[start + base : stop + base]
            symbol = resolve(name, start + base)
            if symbol is not None:
                if not base <= symbol.start < end:
                    free.append(name)
                symbols[start] = symbol
                token_type, modifiers = SYMBOL_TYPES_BY_NAME[symbol.kind._name_], 0
            else:
                free.append(name)
                if receiver >= 0:
                    token_type, modifiers = member_token_role(
                        symbols.get(receiver), name, False, import_paths
                    )
        else:
            if defined >= 0:
                kind = resolve.definition(_KINDS[defined], start + base)
                if kind is not None:
                    token_type, modifiers = SYMBOL_TYPES_BY_NAME[kind._name_], DECLARATION
            if receiver >= 0:
                # A member `_shape` gave the plain property role: never `.await(`.
                token_type, modifiers = member_token_role(
                    symbols.get(receiver), source[start + base : stop + base], False, import_paths
                )
        if token_type >= 0:
            items += (start, stop, token_type, modifiers)
    items = merge_flat(items, shape.comments)
    if not items:
        return None
    return _Rendered(tuple(free), tuple(map(top.get, free)), tuple(items))


def _fragment(source: str, base: int, rendered: _Rendered, encoding: PositionEncoding) -> Fragment:
    """`rendered`'s encoding, made once (it does not depend on where the
    statement lies) and kept on it."""
    if rendered.encoded is None or rendered.encoded_in is not encoding:
        rendered.encoded = encode_fragment(source, base, rendered.items, encoding)
        rendered.encoded_in = encoding
    return rendered.encoded


def _assemble(
    analysis: DocumentAnalysis,
    placed: list[_Place],
    reads: list[tuple[bool, int]],
    encoding: PositionEncoding,
) -> Layout:
    """The encoded numbers of the whole document, laid out for the next answer."""
    source = analysis.source
    encoded = encode_segments(
        source,
        analysis.syntax.lex.comments,
        placed,
        0,
        0,
        Encoder(source, encoding=encoding),
        True,
        lambda base, rendered: _fragment(source, base, rendered, encoding),
        comment_items,
    )
    text = "".join(encoded.parts)
    index = analysis.completion_index
    return Layout(
        source,
        text,
        [place[0] for place in placed],
        [place[1] for place in placed],
        [read_end for _, read_end in reads],
        [initial for initial, _ in reads],
        [place[2] for place in placed],
        [place[3] for place in placed],
        [*encoded.segments, len(text)],
        encoded.last_starts,
        encoded.last_ends,
        index.last_occurrence() if index.truncated else len(source),
        index_cut_of(index),
        encoding,
    )


def _placed_items(analysis: DocumentAnalysis, placed: list[_Place]) -> list[Item]:
    source = analysis.source
    items: list[Item] = []
    for start, end, rendered, _ in in_order(analysis.syntax.lex.comments, placed):
        if rendered is None:
            items.extend(comment_items(source, [(start, end)]))
        else:
            numbers = iter(rendered.items)
            for first, stop, token_type, modifiers in zip(*(numbers,) * 4, strict=True):
                items.append((first + start, stop + start, token_type, modifiers))
    return items
