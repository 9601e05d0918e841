"""textDocument/semanticTokens: full and range, one top-level statement at a time.

A token's role comes from three layers, later ones winning:

1. the syntax tree gives structural roles (`use` path segments, definitions,
   members after `.`, record keys, references, the contextual `catch`);
2. the lexical index (built for broken source too) gives every definition and
   resolved reference its binding kind: import -> namespace, `fn` -> function,
   parameters -> parameter, `let`/`for` -> variable;
3. keywords, reserved words, literals, operators and comments come straight
   from the tokens and the lexer's comment spans.

Each statement's part is kept in the one per-statement cache
(`Statement.view`): a statement's `_Shape` holds what its own text decides
(its tokens' roles from its own tree and bindings, its comments, the
top-level bindings it makes), relative to its first token, and the names it
reads that no binding of its own resolves. What those are bound to (the
last top-level binding of the name in an earlier statement: its kind and,
for an import, its `use` path) is all it reads from outside; each version
walks the statements once to find it, and a statement's items are made
again only where that changed. An answer joins the statements' encoded
items: LSP's relative encoding makes only each statement's first token's two
numbers depend on what lies before it (`encode_fragment` encodes one
statement's items apart from where it lies, `_joined` works out the rest).

Past the index's occurrence budget nothing after the statement where it ran
out is recorded: later statements are classified as if nothing resolved,
that statement from what the index recorded in it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.resolution import AwaitKeyword, StdModuleMember, classify_member_token
from ..analysis.statement_index import LEXICAL_SUMMARY, UnitSummary, lexical_summary
from ..syntax.statements import Statement
from ..syntax.tokens import IDENT, LPAREN, RESERVED_WORDS, Token, first_token_from
from ..syntax.tokens import NUMBER as NUMBER_TOKEN
from ..syntax.tokens import OPERATOR as OPERATOR_TOKEN
from ..syntax.tokens import STRING as STRING_TOKEN
from ..syntax.tree import SYMBOL_IMPORT, Node, SymbolKind
from .positions import UTF16, PositionEncoding
from .wire import integer_items

# (start, end, type, modifiers), code-point offsets on a single line.
Item = tuple[int, int, int, int]
# Items laid end to end, four numbers each: a statement's classification is
# kept for later versions, and one tuple of numbers per statement (instead
# of one tuple per token) keeps a first answer's tens of thousands of items
# from setting off the cyclic collector's passes over the whole analysis.
Flat = Sequence[int]


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
PUNCTUATION_OPERATORS = frozenset({".", ":"})

_SYMBOL_TYPES = {
    SymbolKind.IMPORT: NAMESPACE,
    SymbolKind.FUNCTION: FUNCTION,
    SymbolKind.PARAMETER: PARAMETER,
    SymbolKind.LAMBDA_PARAMETER: PARAMETER,
    SymbolKind.LET: VARIABLE,
    SymbolKind.LOOP_BINDING: VARIABLE,
}
# The same by the kind's name: an Enum member hashes through a Python-level
# `__hash__` (CPython 3.11), its name (a str) in C; a first answer looks up
# the kind of every definition and resolved reference.
SYMBOL_TYPES_BY_NAME = {kind._name_: token_type for kind, token_type in _SYMBOL_TYPES.items()}

Role = tuple[int, int]


def member_role(path: tuple[str, ...] | None, member: str, called: bool) -> Role:
    """The role of a member token whose receiver is the import of `path` (None: not one)."""
    match classify_member_token(path, member, called):
        case AwaitKeyword():
            return (KEYWORD, 0)
        case StdModuleMember(member=found) if found is not None:
            return (PROPERTY, READONLY)
        case _:
            return (PROPERTY, 0)


def full(analysis: DocumentAnalysis, encoding: PositionEncoding = UTF16) -> types.SemanticTokens:
    """Every semantic token of the document, columns and lengths in `encoding`."""
    text = full_items(analysis, encoding)
    return types.SemanticTokens(data=[int(number) for number in text.split(",")] if text else [])


def full_items(analysis: DocumentAnalysis, encoding: PositionEncoding = UTF16) -> str:
    """`full`'s numbers as the comma-separated items of a JSON array."""
    return _joined(analysis.source, _walk(analysis), encoding)


def _joined(source: str, placed: Iterator[_Placed], encoding: PositionEncoding) -> str:
    """The statements' encoded items one after the other, each statement's
    first two numbers worked out from where the item before it lies: lines
    count line feeds as `encode` does, and the gap between two statements'
    items is the only text looked at."""
    parts = []
    append = parts.append
    rfind, count = source.rfind, source.count
    plain = encoding.code_points or source.isascii()
    width = encoding.width
    line = previous_line = previous_column = 0
    cursor = cursor_column = 0  # the end of the last item, and its column
    for base, shape, rendered in placed:
        fragment = rendered.encoded
        if rendered.encoding is not encoding:
            fragment = rendered.fragment(shape.text, encoding)
        first = base + fragment.first
        newline = rfind("\n", cursor, first)
        if newline != -1:
            line += count("\n", cursor, newline + 1)
            cursor, cursor_column = newline + 1, 0
        column = cursor_column + (first - cursor if plain else width(source[cursor:first]))
        if line == previous_line:
            append(f"0,{column - previous_column}{fragment.head}")
        else:
            append(f"{line - previous_line},{column}{fragment.head}")
        lines = fragment.lines
        shift = column if lines == 0 else 0
        line += lines
        previous_line = line
        previous_column = fragment.last_start_column + shift
        cursor = base + fragment.last_end
        cursor_column = fragment.last_end_column + shift
    return ",".join(parts)


def range_tokens(
    analysis: DocumentAnalysis,
    start_offset: int,
    end_offset: int,
    encoding: PositionEncoding = UTF16,
) -> types.SemanticTokens:
    """The semantic tokens intersecting [start_offset, end_offset] (still absolute-encoded)."""
    items = [item for item in classify(analysis) if item[0] < end_offset and item[1] > start_offset]
    return types.SemanticTokens(data=encode(analysis.source, items, encoding))


def classify(analysis: DocumentAnalysis) -> list[Item]:
    """Classified spans in source order, block comments already split per line."""
    items: list[Item] = []
    for base, _, rendered in _walk(analysis):
        numbers = iter(rendered.items)
        for start, end, token_type, modifiers in zip(*(numbers,) * 4, strict=True):
            items.append((start + base, end + base, token_type, modifiers))
    return items


# ------------------------------------------------------------- per statement

# What a top-level binding means to the statements after it: its kind and,
# for an import, its `use` path (which decides std members' `readonly`).
Binding = tuple[SymbolKind, tuple[str, ...] | None]
_VIEW = "semantic tokens"


# (start now, shape, items) of a statement with items.
_Placed = tuple[int, "_Shape", "_Rendered"]


def _walk(analysis: DocumentAnalysis) -> Iterator[_Placed]:
    """The head and every statement with items, in order."""
    # A generator: an answer holds no tuple per statement at once (each
    # would count towards the cyclic collector's next pass). It runs once
    # per statement of every answer, so the usual case (the bindings a
    # statement reads unchanged) makes no call but the cache's.
    if analysis.syntax is None:
        return
    found, index = analysis.syntax.statements, analysis.completion_index
    statements, starts = found.statements, found.starts
    cut = len(statements) if index.cut is None else index.cut
    head = found.head.view(_VIEW, _Shape)
    if head.template.rendered is not None:
        yield 0, head, head.template.rendered
    top: dict[str, Binding] = {}  # the last top-level binding of each name so far
    get, update = top.get, top.update
    for start, statement in zip(starts[:cut], statements[:cut], strict=True):
        shape = statement.view(_VIEW, _Shape)
        rendered = shape.rendered
        free = shape.free
        if free:
            bindings = tuple(map(get, free))
            if bindings != shape.template.bindings:
                rendered = shape.rendered = shape.template.render(bindings)
        if shape.exports:
            update(shape.exports)
        if rendered is not None:
            yield start, shape, rendered
    if cut < len(statements):
        shape = statements[cut].view(_VIEW, _Shape)
        template = _Template(shape, index.pieces[cut][1])
        rendered = template.render(tuple(map(get, template.free)))
        if rendered is not None:
            yield starts[cut], shape, rendered
    for start, statement in zip(starts[cut + 1 :], statements[cut + 1 :], strict=True):
        shape = statement.view(_VIEW, _Shape)
        rendered = shape.unresolved()
        if rendered is not None:
            yield start, shape, rendered


class _Shape:
    """What one statement's text decides, offsets relative to its first token."""

    __slots__ = (
        "text",
        "tokens",
        "comments",
        "imports",
        "exports",
        "template",
        "free",
        "rendered",
        "_unresolved",
    )

    def __init__(self, statement: Statement) -> None:
        tokens, origin = statement.tokens, statement.origin
        roles, members, imported = tree_roles(statement.nodes, tokens)
        # Member tokens, their roles as if the receiver were no import, and
        # after a plain-name receiver: (receiver start, called).
        receivers: dict[int, tuple[int, bool]] = {}
        for node in members:
            if node.token < 0:
                continue
            token = tokens[node.token]
            following = node.token + 1
            called = following < len(tokens) and tokens[following].kind is LPAREN
            roles[token.start] = member_role(None, token.text, called)
            if node.children and node.children[0].kind == "name":
                receivers[token.start] = (node.children[0].start - origin, called)
        # Per token with an item: (start, end, type, modifiers, receiver start
        # or -1, member text, called), its role as if nothing resolved.
        found: list[tuple] = []
        for token in tokens[statement.first : statement.after]:
            kind = token.kind
            if kind is IDENT:
                at = token.start
                token_type, modifiers = roles.get(at) or (
                    (KEYWORD, 0) if token.text in RESERVED_WORDS else (-1, 0)
                )
                receiver, called = receivers.get(at, (-1, False))
                entry = (at - origin, token.end - origin, token_type, modifiers, receiver)
                found.append((*entry, token.text, called))
            elif kind is STRING_TOKEN:
                found.append((token.start - origin, token.end - origin, STRING, 0, -1, "", False))
            elif kind is NUMBER_TOKEN:
                found.append((token.start - origin, token.end - origin, NUMBER, 0, -1, "", False))
            elif kind is OPERATOR_TOKEN and token.text not in PUNCTUATION_OPERATORS:
                found.append((token.start - origin, token.end - origin, OPERATOR, 0, -1, "", False))
        self.tokens = found
        self.comments = [
            (start - origin, end - origin, token_type, modifiers)
            for start, end, token_type, modifiers in comment_items(
                statement.build.text, statement.comments
            )
        ]
        self.imports = {start - origin: path for start, path in imported.items()}
        last = max(found[-1][1] if found else 0, self.comments[-1][1] if self.comments else 0)
        text = statement.text
        self.text = text if last <= len(text) else statement.build.text[origin : origin + last]
        summary = statement.view(LEXICAL_SUMMARY, lexical_summary)
        symbols = summary.symbols
        self.exports = {
            symbols[number].name: self.binding(symbols[number].kind, symbols[number].start)
            for number in summary.tops
        }
        self.template = _Template(self, summary)
        # The template's names and its last rendering, read without it by
        # the walk every answer makes.
        self.free, self.rendered = self.template.free, self.template.rendered
        self._unresolved: _Template | None = None

    def binding(self, kind: SymbolKind, start: int) -> Binding:
        return kind, self.imports.get(start) if kind is SYMBOL_IMPORT else None

    def unresolved(self) -> _Rendered | None:
        """Its items where nothing resolves (past the occurrence budget)."""
        if self._unresolved is None:
            self._unresolved = _Template(self, _NOTHING)
        return self._unresolved.rendered


_NOTHING = UnitSummary((), (), (), 0, True, (), (), {})


class _Template:
    """A statement's items given its bindings (`summary`): final where they
    resolve inside it, `holes` where they depend on the names it reads."""

    __slots__ = ("free", "items", "holes", "bindings", "rendered")

    def __init__(self, shape: _Shape, summary: UnitSummary) -> None:
        local = {}  # start -> (its binding, whether it is the definition)
        for symbol in summary.symbols:
            binding = shape.binding(symbol.kind, symbol.start)
            local[symbol.start] = (binding, True)
            for start, _ in symbol.references:
                local[start] = (binding, False)
        slots: dict[str, int] = {}
        free = {start: slots.setdefault(name, len(slots)) for name, start, _ in summary.free}
        items: list[tuple] = []
        holes: list[tuple[int, int, str | None, bool]] = []  # by item, see `render`
        for start, end, token_type, modifiers, receiver, text, called in shape.tokens:
            if receiver >= 0:
                if receiver in local:
                    binding = local[receiver][0]
                    token_type, modifiers = member_role(_path(binding), text, called)
                elif receiver in free:
                    holes.append((len(items), free[receiver], text, called))
            if start in local:
                binding, defined = local[start]
                token_type = SYMBOL_TYPES_BY_NAME[binding[0]._name_]
                modifiers = DECLARATION if defined else 0
            elif start in free:
                holes.append((len(items), free[start], None, False))
            if token_type >= 0:
                items.append((start, end, token_type, modifiers))
        ordered = sorted(range(len(items) + len(shape.comments)), key=_start_of(items, shape))
        numbers: list[int] = []
        place = {}  # item -> where its type lies in `numbers`
        for number in ordered:
            if number < len(items):
                place[number] = len(numbers) + 2
                numbers += items[number]
            else:
                numbers += shape.comments[number - len(items)]
        self.free = tuple(slots)
        self.items = tuple(numbers)
        self.holes = tuple((place[item], *rest) for item, *rest in holes)
        self.bindings: tuple | None = None
        self.rendered = _Rendered(self.items) if numbers and not holes else None

    def render(self, bindings: tuple[Binding | None, ...]) -> _Rendered | None:
        """Its items with the names it reads bound to `bindings` (kept for
        as long as they are the bindings asked for)."""
        if self.holes:
            numbers = list(self.items)
            for at, slot, member, called in self.holes:
                binding = bindings[slot]
                if member is not None:
                    numbers[at], numbers[at + 1] = member_role(_path(binding), member, called)
                elif binding is not None:
                    numbers[at], numbers[at + 1] = SYMBOL_TYPES_BY_NAME[binding[0]._name_], 0
            self.rendered = _Rendered(tuple(numbers))
        self.bindings = bindings
        return self.rendered


def _start_of(items: list[tuple], shape: _Shape):
    count, comments = len(items), shape.comments
    return lambda number: items[number][0] if number < count else comments[number - count][0]


def _path(binding: Binding | None) -> tuple[str, ...] | None:
    return binding[1] if binding is not None and binding[0] is SYMBOL_IMPORT else None


class _Rendered:
    """A statement's items (flat, relative) and their encoding, made once per encoding."""

    __slots__ = ("items", "encoding", "encoded")

    def __init__(self, items: tuple[int, ...]) -> None:
        self.items = items
        self.encoding: PositionEncoding | None = None
        self.encoded: Fragment | None = None

    def fragment(self, text: str, encoding: PositionEncoding) -> Fragment:
        if self.encoding is not encoding:
            self.encoded = encode_fragment(text, 0, self.items, encoding)
            self.encoding = encoding
        return self.encoded


# --------------------------------------------------------------------------- roles


def tree_roles(
    roots: list[Node], tokens: list[Token]
) -> tuple[dict[int, Role], list[Node], dict[int, tuple[str, ...]]]:
    """Structural roles keyed by token start offset, with the member nodes
    and the `use` paths by binding start found on the same walk (of the
    trees `roots`, each node before its children, as `Node.walk`)."""
    roles: dict[int, Role] = {}
    import_paths: dict[int, tuple[str, ...]] = {}
    members: list[Node] = []
    # One walk over every node of the document on a first answer: the
    # stack is kept here rather than in a generator, and names (a third
    # of the nodes) are tried first.
    stack = roots[::-1]
    pop, push = stack.pop, stack.extend
    set_default = roles.setdefault
    while stack:
        node = pop()
        kind = node.kind
        if kind == "name":
            set_default(node.start, _VARIABLE_ROLE)
        elif kind in _ROLE_KINDS:
            if kind == "member":
                members.append(node)
            elif kind == "field":
                if node.token >= 0:
                    roles[tokens[node.token].start] = _PROPERTY_ROLE
            elif kind == "params":
                for child in node.children:
                    roles[tokens[child.token].start] = _PARAMETER_DECLARATION
            elif kind == "use":
                _use_roles(node, tokens, roles, import_paths)
            elif kind == "try":
                _catch_role(node, tokens, roles)
            else:
                _definition_roles(node, roles)
        children = node.children
        if children:
            push(reversed(children))
    return roles, members, import_paths


# The node kinds `tree_roles` gives roles from, besides `name`.
_ROLE_KINDS = frozenset({"use", "let", "fn", "for", "params", "member", "field", "try"})
_VARIABLE_ROLE = (VARIABLE, 0)
_PROPERTY_ROLE = (PROPERTY, 0)
_PARAMETER_DECLARATION = (PARAMETER, DECLARATION)


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
    after = first_token_from(tokens, node.children[0].end)
    if after < len(tokens) and tokens[after].is_ident("catch"):
        roles[tokens[after].start] = (KEYWORD, 0)


def comment_items(source: str, comments: list[tuple[int, int]]) -> list[Item]:
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


# --------------------------------------------------------------------------- encoding


class Fragment(NamedTuple):
    """A statement's items encoded, all but its first two numbers (a named
    tuple, as `_Run`: one per statement of a first answer)."""

    first: int  # start of its first item, relative
    head: str  # ",length,type,modifiers" of the first item, then every later item's five
    lines: int  # line breaks between its first item and its last
    # Start and end column of its last item: relative to the first item's
    # column when `lines` is 0 (the first line's columns depend on the text
    # before the statement), else absolute.
    last_start_column: int
    last_end_column: int
    last_end: int  # end of its last item, relative


def encode_fragment(
    source: str, base: int, items: Sequence[int], encoding: PositionEncoding = UTF16
) -> Fragment:
    """A statement's items (flat, see `Flat`; offsets relative to `base`,
    never empty) encoded."""
    first = items[0] + base
    run = _encode_run(source, items, base, source.rfind("\n", 0, first) + 1, encoding)
    shift = run.data[1] if run.line == 0 else 0  # the first item's column
    return Fragment(
        items[0],
        "," + integer_items(run.data[2:]),
        run.line,
        run.last_column - shift,
        run.cursor_column - shift,
        run.cursor - base,
    )


def encode(source: str, items: list[Item], encoding: PositionEncoding = UTF16) -> list[int]:
    """LSP relative encoding in `encoding`'s columns, computed incrementally."""
    flat = [number for item in items for number in item]
    return _encode_run(source, flat, 0, 0, encoding).data


class _Run(NamedTuple):
    data: list[int]
    line: int  # line breaks counted from where the run started
    last_column: int  # column of the last item's start
    cursor: int  # end of the last item
    cursor_column: int  # its column


def _encode_run(
    source: str, items: Flat, base: int, line_start: int, encoding: PositionEncoding
) -> _Run:
    """`items` (flat, offsets relative to `base`) encoded from `line_start`, a line's start."""
    if encoding.code_points or source.isascii():
        return _encode_ascii_run(source, items, base, line_start)
    width = encoding.width
    data: list[int] = []
    line = 0
    previous_line = 0
    previous_column = 0
    cursor = line_start  # offset whose column on `line` is `cursor_column`
    cursor_column = 0
    numbers = iter(items)
    for start, end, token_type, modifiers in zip(numbers, numbers, numbers, numbers, strict=True):
        start += base
        end += base
        newline = source.rfind("\n", cursor, start)
        if newline != -1:
            line += source.count("\n", cursor, newline + 1)
            cursor, cursor_column = newline + 1, 0
        column = cursor_column + width(source[cursor:start])
        length = width(source[start:end])
        cursor, cursor_column = end, column + length
        if line == previous_line:
            data += (0, column - previous_column, length, token_type, modifiers)
        else:
            data += (line - previous_line, column, length, token_type, modifiers)
            previous_line = line
        previous_column = column
    return _Run(data, line, previous_column, cursor, cursor_column)


def _encode_ascii_run(source: str, items: Flat, base: int, line_start: int) -> _Run:
    """`_encode_run` where a column is an offset from its line's start (an
    ASCII text, or UTF-32: the loop a first answer runs for every item of
    the document)."""
    data: list[int] = []
    rfind, count = source.rfind, source.count
    line = previous_line = previous_column = column = 0
    cursor = line_start  # the end of the last item
    end = line_start
    numbers = iter(items)
    for start, end, token_type, modifiers in zip(numbers, numbers, numbers, numbers, strict=True):
        start += base
        end += base
        newline = rfind("\n", cursor, start)
        column = start - line_start
        if newline == -1:
            data += (0, column - previous_column, end - start, token_type, modifiers)
        else:
            line += count("\n", cursor, newline + 1)
            line_start = newline + 1
            column = start - line_start
            data += (line - previous_line, column, end - start, token_type, modifiers)
            previous_line = line
        previous_column = column
        cursor = end
    return _Run(data, line, column, end, column + (end - start) if data else 0)
