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

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import LexicalIndex, Symbol
from ..analysis.resolution import AwaitKeyword, StdModuleMember, classify_member_token
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
from ..syntax.tokens import RESERVED_WORDS, Kind, Token, first_token_from
from ..syntax.tree import Node, SymbolKind
from .semantic_encoding import Encoder, Fragment, Item, encode, encode_fragment
from .semantic_layout import (
    Layout,
    encode_segments,
    in_order,
    index_cut_of,
    recorded_whole_before,
    splice,
)
from .wire import WireText, integer_items

TOKEN_TYPES: tuple[str, ...] = (
    "namespace",
    "function",
    "parameter",
    "variable",
    "property",
    "keyword",
    "string",
    "number",
    "comment",
    "operator",
)
TOKEN_MODIFIERS: tuple[str, ...] = ("declaration", "readonly")

LEGEND = types.SemanticTokensLegend(
    token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS)
)

NAMESPACE, FUNCTION, PARAMETER, VARIABLE, PROPERTY = 0, 1, 2, 3, 4
KEYWORD, STRING, NUMBER, COMMENT, OPERATOR = 5, 6, 7, 8, 9
DECLARATION = 1 << 0
READONLY = 1 << 1

# Punctuation spelled as operators that is not worth colouring.
_PUNCTUATION_OPERATORS = frozenset({".", ":"})

_SYMBOL_TYPES = {
    SymbolKind.IMPORT: NAMESPACE,
    SymbolKind.FUNCTION: FUNCTION,
    SymbolKind.PARAMETER: PARAMETER,
    SymbolKind.LAMBDA_PARAMETER: PARAMETER,
    SymbolKind.LET: VARIABLE,
    SymbolKind.LOOP_BINDING: VARIABLE,
}

Role = tuple[int, int]


def full(analysis: DocumentAnalysis, carried: bool = False) -> types.SemanticTokens:
    """Every semantic token of the document (`carried`: see `classify`)."""
    return types.SemanticTokens(data=encode(analysis.source, classify(analysis, carried)))


def full_wire(analysis: DocumentAnalysis, carried: bool = False) -> WireText:
    """`full`'s answer as JSON text: the encoded numbers are most of the answer.

    With `carried` each top-level statement's numbers come already rendered
    from an earlier version when the parser kept it and the bindings it
    reads from outside are unchanged; only its first token's deltas are
    worked out.
    """
    return WireText('{"data":[' + full_items(analysis, carried) + "]}")


def full_items(analysis: DocumentAnalysis, carried: bool = False) -> str:
    """`full`'s numbers as the comma-separated items of a JSON array.

    With `carried`, the last answer's layout (handed on through
    `analysis.reuse`) is spliced when only a few statements changed
    (`_spliced`)."""
    if not carried:
        return integer_items(encode(analysis.source, classify(analysis)))
    reuse = analysis.reuse
    spliced = _spliced(analysis, reuse.left(_LAYOUT))
    if spliced is not None:
        reuse.hand_on(_LAYOUT, spliced)
        return spliced.text[1:]
    reads: list[tuple[bool, int]] = []
    placed = _placed(analysis, reads)
    if placed is None:
        reuse.hand_on(_LAYOUT, None)
        return integer_items(encode(analysis.source, classify(analysis)))
    layout = _assemble(analysis, placed, reads)
    reuse.hand_on(_LAYOUT, layout)
    return layout.text[1:]


def range_tokens(
    analysis: DocumentAnalysis,
    start_offset: int,
    end_offset: int,
    carried: bool = False,
) -> types.SemanticTokens:
    """The semantic tokens intersecting [start_offset, end_offset] (still absolute-encoded)."""
    items = [
        item
        for item in classify(analysis, carried)
        if item[0] < end_offset and item[1] > start_offset
    ]
    return types.SemanticTokens(data=encode(analysis.source, items))


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
    roles = _tree_roles(syntax.parsed.tree, tokens, _occurrence_map(index))[0]
    _apply_index_roles(roles, index)
    return _merge(_token_items(tokens, roles), _comment_items(analysis.source, syntax.lex.comments))


# ------------------------------------------------------------- per statement

# One token of a statement, offsets relative to the statement's first token:
# (start, end, structural type or -1, modifiers, member receiver start or
# -1, whether the parser resolves a reference there, the kind of binding
# the parser defines there or None). A definition is classified from that
# kind alone while the index kept every occurrence: it is one whatever else
# the document holds.
_Entry = tuple[int, int, int, int, int, bool, SymbolKind | None]
# What a top-level binding means to the statements after it: its kind and,
# for an import, its `use` path (which decides std members' `readonly`).
_Binding = tuple[SymbolKind, tuple[str, ...] | None]


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a statement's text alone decides (offsets relative to its first token)."""

    entries: tuple[_Entry, ...]
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
    items: tuple[Item, ...]  # relative to the statement's first token; never empty
    encoded: Fragment | None = None  # made by the first answer that needs it


@dataclass(frozen=True, slots=True)
class _Statement:
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


def _spliced(analysis: DocumentAnalysis, layout: Layout | None) -> Layout | None:
    """The last answer (`layout`) with only the statements an edit touched
    classified and encoded again, when that equals what `_placed` and
    `_assemble` make (`semantic_layout.splice` says when); None otherwise."""
    syntax = analysis.syntax
    if layout is None or syntax is None or syntax.lex.token_limit_offset is not None:
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
        lambda base, rendered: _fragment(source, base, rendered),
        _comment_items,
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
            self.table = _occurrence_map(self.index)
        return self.table.get(offset)

    def _recorded(self, offset: int) -> Symbol | None:
        """The symbol of the occurrence the index recorded at `offset`."""
        if self.table is None:
            self.lookups += 1
            if self.lookups <= MAX_SEMANTIC_VISIBLE_LOOKUPS:
                found = self.index.occurrence_at(offset)
                return found.symbol if found is not None and found.start == offset else None
            self.table = _occurrence_map(self.index)
        return self.table.get(offset)


def _shape(analysis: DocumentAnalysis, position: int, base: int, end: int) -> _Shape:
    """What one statement's text decides: structural roles as `_tree_roles`
    finds them, definitions, references and comments, all relative."""
    syntax = analysis.syntax
    tokens, parsed = syntax.tokens, syntax.parsed
    units = parsed.units
    first, after = units[position][FIRST_TOKEN], units[position][AFTER_TOKEN]
    children_start, children_end = children_of(units, position)
    program = Node("program", 0, 0, parsed.tree.children[children_start:children_end])
    roles, members, imported = _tree_roles(program, tokens, {})
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
    definitions = {symbol.start: symbol.kind for symbol in symbols}
    references = {start for start, _ in summary.sites}
    exports = [
        (symbols[number].name, symbols[number].start, symbols[number].kind)
        for number in summary.tops
    ]
    entries: list[_Entry] = []
    for token in tokens[first:after]:
        kind = token.kind
        start, stop = token.start - base, token.end - base
        if kind is Kind.IDENT:
            role = roles.get(token.start)
            if role is None and token.text in RESERVED_WORDS:
                role = (KEYWORD, 0)
            token_type, modifiers = role if role is not None else (-1, 0)
            receiver = receivers.get(token.start, base - 1) - base
            entries.append(
                (
                    start,
                    stop,
                    token_type,
                    modifiers,
                    receiver,
                    start in references,
                    definitions.get(start),
                )
            )
        elif kind is Kind.STRING:
            entries.append((start, stop, STRING, 0, -1, False, None))
        elif kind is Kind.NUMBER:
            entries.append((start, stop, NUMBER, 0, -1, False, None))
        elif kind is Kind.OPERATOR and token.text not in _PUNCTUATION_OPERATORS:
            entries.append((start, stop, OPERATOR, 0, -1, False, None))
    owned = _owned_comments(syntax.lex.comments, base, end)
    return _Shape(
        tuple(entries),
        tuple(import_paths.items()),
        tuple(
            (name, (kind, import_paths.get(start) if kind is SymbolKind.IMPORT else None))
            for name, start, kind in exports
        ),
        summary.balanced,
        tuple(
            (start - base, stop - base, token_type, modifiers)
            for start, stop, token_type, modifiers in _comment_items(analysis.source, owned)
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
    items: list[Item] = []
    for start, stop, token_type, modifiers, receiver, referenced, defined in shape.entries:
        symbol = None
        if referenced:
            name = source[start + base : stop + base]
            symbol = resolve(name, start + base)
            if symbol is None or not base <= symbol.start < end:
                free.append(name)
        elif defined is not None:
            kind = resolve.definition(defined, start + base)
            if kind is not None:
                token_type, modifiers = _SYMBOL_TYPES[kind], DECLARATION
        if symbol is not None:
            symbols[start] = symbol
            token_type, modifiers = _SYMBOL_TYPES[symbol.kind], 0
        elif receiver >= 0:
            # A member `_shape` gave the plain property role: never `.await(`.
            member = source[start + base : stop + base]
            token_type, modifiers = _member_token_role(
                symbols.get(receiver), member, False, import_paths
            )
        if token_type >= 0:
            items.append((start, stop, token_type, modifiers))
    items = _merge(items, list(shape.comments))
    if not items:
        return None
    return _Rendered(tuple(free), tuple(map(top.get, free)), tuple(items))


def _fragment(source: str, base: int, rendered: _Rendered) -> Fragment:
    """`rendered`'s encoding, made once (it does not depend on where the
    statement lies) and kept on it."""
    if rendered.encoded is None:
        rendered.encoded = encode_fragment(source, base, rendered.items)
    return rendered.encoded


def _assemble(
    analysis: DocumentAnalysis, placed: list[_Place], reads: list[tuple[bool, int]]
) -> Layout:
    """The encoded numbers of the whole document, laid out for the next answer."""
    source = analysis.source
    encoded = encode_segments(
        source,
        analysis.syntax.lex.comments,
        placed,
        0,
        0,
        Encoder(source),
        True,
        lambda base, rendered: _fragment(source, base, rendered),
        _comment_items,
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
    )


def _placed_items(analysis: DocumentAnalysis, placed: list[_Place]) -> list[Item]:
    source = analysis.source
    items: list[Item] = []
    for start, end, rendered, _ in in_order(analysis.syntax.lex.comments, placed):
        if rendered is None:
            items.extend(_comment_items(source, [(start, end)]))
        else:
            items.extend(
                (first + start, stop + start, token_type, modifiers)
                for first, stop, token_type, modifiers in rendered.items
            )
    return items


def _member_token_role(
    receiver: Symbol | None, member: str, called: bool, import_paths: dict[int, tuple[str, ...]]
) -> Role:
    """The role of a member token, from the member classifier's value
    (`receiver`: the binding of a plain-name receiver, if resolved)."""
    path = None
    if receiver is not None and receiver.kind is SymbolKind.IMPORT:
        path = import_paths.get(receiver.start)
    match classify_member_token(path, member, called):
        case AwaitKeyword():
            return (KEYWORD, 0)
        case StdModuleMember(member=found) if found is not None:
            return (PROPERTY, READONLY)
        case _:
            return (PROPERTY, 0)


# --------------------------------------------------------------------------- roles


def _occurrence_map(index: LexicalIndex) -> dict[int, Symbol]:
    """Start offset of every definition and resolved reference -> its symbol."""
    found: dict[int, Symbol] = {}
    for symbol in index.symbols:
        found[symbol.start] = symbol
        for start, _ in symbol.references:
            found[start] = symbol
    return found


def _tree_roles(
    tree: Node, tokens: list[Token], occurrences: dict[int, Symbol]
) -> tuple[dict[int, Role], list[Node], dict[int, tuple[str, ...]]]:
    """Structural roles keyed by token start offset, with the member nodes
    and the `use` paths by binding start found on the same walk."""
    roles: dict[int, Role] = {}
    import_paths: dict[int, tuple[str, ...]] = {}
    members: list[Node] = []
    for node in tree.walk():
        kind = node.kind
        if kind == "use":
            _use_roles(node, tokens, roles, import_paths)
        elif kind in ("let", "fn", "for"):
            _definition_roles(node, roles)
        elif kind == "params":
            for child in node.children:
                roles[tokens[child.token].start] = (PARAMETER, DECLARATION)
        elif kind == "name":
            roles.setdefault(node.start, (VARIABLE, 0))
        elif kind == "member":
            members.append(node)
        elif kind == "field" and node.token >= 0:
            roles[tokens[node.token].start] = (PROPERTY, 0)
        elif kind == "try":
            _catch_role(node, tokens, roles)
    for node in members:
        _member_role(node, tokens, roles, occurrences, import_paths)
    return roles, members, import_paths


def _use_roles(
    node: Node,
    tokens: list[Token],
    roles: dict[int, Role],
    import_paths: dict[int, tuple[str, ...]],
) -> None:
    segments = node.children
    for segment in segments:
        roles[segment.start] = (NAMESPACE, 0)
    if len(segments) > 1:
        binding = segments[-1]
        roles[binding.start] = (NAMESPACE, DECLARATION)
        import_paths[binding.start] = tuple(tokens[item.token].text for item in segments)


def _definition_roles(node: Node, roles: dict[int, Role]) -> None:
    if node.kind == "for":
        children = node.children
        names = children if not children or children[-1].kind == "name" else children[:-2]
        for child in names:
            roles[child.start] = (VARIABLE, DECLARATION)
        return
    first = node.children[0] if node.children else None
    if first is not None and first.kind == "name" and first.token == node.token:
        roles[first.start] = (FUNCTION if node.kind == "fn" else VARIABLE, DECLARATION)


def _catch_role(node: Node, tokens: list[Token], roles: dict[int, Role]) -> None:
    if not node.children:
        return
    after = _token_index_at(tokens, node.children[0].end)
    if after is not None and tokens[after].is_ident("catch"):
        roles[tokens[after].start] = (KEYWORD, 0)


def _member_role(
    node: Node,
    tokens: list[Token],
    roles: dict[int, Role],
    occurrences: dict[int, Symbol],
    import_paths: dict[int, tuple[str, ...]],
) -> None:
    if node.token < 0:
        return
    token = tokens[node.token]
    following = tokens[node.token + 1] if node.token + 1 < len(tokens) else None
    called = following is not None and following.kind is Kind.LPAREN
    receiver = node.children[0] if node.children else None
    symbol = None
    if receiver is not None and receiver.kind == "name":
        symbol = occurrences.get(receiver.start)
    roles[token.start] = _member_token_role(symbol, token.text, called, import_paths)


def _apply_index_roles(roles: dict[int, Role], index: LexicalIndex) -> None:
    for symbol in index.symbols:
        token_type = _SYMBOL_TYPES[symbol.kind]
        roles[symbol.start] = (token_type, DECLARATION)
        for start, _ in symbol.references:
            roles[start] = (token_type, 0)


def _token_index_at(tokens: list[Token], offset: int) -> int | None:
    """Index of the first token starting at or after `offset`."""
    index = first_token_from(tokens, offset)
    return index if index < len(tokens) else None


# --------------------------------------------------------------------------- items


def _token_items(tokens: list[Token], roles: dict[int, Role]) -> list[Item]:
    items: list[Item] = []
    for token in tokens:
        kind = token.kind
        if kind is Kind.IDENT:
            role = roles.get(token.start)
            if role is None and token.text in RESERVED_WORDS:
                role = (KEYWORD, 0)
            if role is not None:
                items.append((token.start, token.end, role[0], role[1]))
        elif kind is Kind.STRING:
            items.append((token.start, token.end, STRING, 0))
        elif kind is Kind.NUMBER:
            items.append((token.start, token.end, NUMBER, 0))
        elif kind is Kind.OPERATOR and token.text not in _PUNCTUATION_OPERATORS:
            items.append((token.start, token.end, OPERATOR, 0))
    return items


def _comment_items(source: str, comments: list[tuple[int, int]]) -> list[Item]:
    """One item per comment line: LSP tokens may not span lines."""
    items: list[Item] = []
    for start, end in comments:
        piece_start = start
        newline = source.find("\n", piece_start, end)
        while newline != -1:
            _append_comment_piece(items, source, piece_start, newline)
            piece_start = newline + 1
            newline = source.find("\n", piece_start, end)
        _append_comment_piece(items, source, piece_start, end)
    return items


def _append_comment_piece(items: list[Item], source: str, start: int, end: int) -> None:
    if end > start and source[end - 1] == "\r":
        end -= 1
    if end > start:
        items.append((start, end, COMMENT, 0))


def _merge(first: list[Item], second: list[Item]) -> list[Item]:
    """Merge two start-sorted, non-overlapping lists."""
    if not second:
        return first
    merged: list[Item] = []
    i = j = 0
    while i < len(first) and j < len(second):
        if first[i][0] <= second[j][0]:
            merged.append(first[i])
            i += 1
        else:
            merged.append(second[j])
            j += 1
    merged.extend(first[i:])
    merged.extend(second[j:])
    return merged
