"""textDocument/semanticTokens: full and range, classified from tokens and the index.

Classification has three layers, later ones winning:

1. the syntax tree gives structural roles (`use` path segments, definitions,
   members after `.`, record keys, references, the contextual `catch`);
2. the lexical index (built for broken source too) gives every definition and
   resolved reference its binding kind: import -> namespace, `fn` -> function,
   parameters -> parameter, `let`/`for` -> variable;
3. keywords, reserved words, literals, operators and comments come straight
   from the tokens and the lexer's comment spans.

Everything is one pass over the tree plus one pass over the tokens; positions
are encoded incrementally so long lines stay linear.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import LexicalIndex, Symbol
from ..analysis.surfaces import member as std_member
from ..analysis.surfaces import std_module_for_import
from ..syntax.lexer import statement_key
from ..syntax.tokens import RESERVED_WORDS, Kind, Token, first_token_from
from ..syntax.tree import Node, SymbolKind
from .wire import WireText, integer_array

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

# (start, end, type, modifiers), code-point offsets on a single line.
Item = tuple[int, int, int, int]
Role = tuple[int, int]


def full(analysis: DocumentAnalysis, memo: StatementRoles | None = None) -> types.SemanticTokens:
    """Every semantic token of the document (`memo`: see `classify`)."""
    return types.SemanticTokens(data=_encode(analysis.source, classify(analysis, memo)))


def full_wire(analysis: DocumentAnalysis, memo: StatementRoles | None = None) -> WireText:
    """`full`'s answer as JSON text: the encoded numbers are most of the answer."""
    data = _encode(analysis.source, classify(analysis, memo))
    return WireText('{"data":' + integer_array(data) + "}")


def range_tokens(
    analysis: DocumentAnalysis,
    start_offset: int,
    end_offset: int,
    memo: StatementRoles | None = None,
) -> types.SemanticTokens:
    """The semantic tokens intersecting [start_offset, end_offset] (still absolute-encoded)."""
    items = [
        item for item in classify(analysis, memo) if item[0] < end_offset and item[1] > start_offset
    ]
    return types.SemanticTokens(data=_encode(analysis.source, items))


def classify(analysis: DocumentAnalysis, memo: StatementRoles | None = None) -> list[Item]:
    """Classified spans in source order, block comments already split per line.

    With `memo` (kept by the caller between versions) the structural part is
    taken per top-level statement from earlier versions with the same
    statement text; only what depends on other statements (bindings and the
    imports members resolve to) is looked up again. The memo is refreshed.
    """
    syntax = analysis.syntax
    if syntax is None:
        return []
    tokens = syntax.tokens
    index = analysis.completion_index
    occurrences = _occurrence_map(index)
    if memo is None or syntax.lex.token_limit_offset is not None:
        roles = _tree_roles(syntax.parsed.tree, tokens, occurrences)
        _apply_index_roles(roles, index)
        token_items = _token_items(tokens, roles)
    else:
        token_items = _items_by_statement(analysis, occurrences, memo)
    comment_items = _comment_items(analysis.source, syntax.lex.comments)
    return _merge(token_items, comment_items)


# ------------------------------------------------------------- per statement

# One token of a statement, offsets relative to the statement's first token:
# (start, end, type or -1, modifiers, member receiver start or -1, is identifier).
_Entry = tuple[int, int, int, int, int, bool]


@dataclass(frozen=True, slots=True)
class _Statement:
    entries: tuple[_Entry, ...]
    imports: tuple[tuple[int, tuple[str, ...]], ...]  # (binding start, `use` path)


# Statement pieces by statement text (through the token after it).
StatementRoles = dict[str, _Statement]


def _items_by_statement(
    analysis: DocumentAnalysis, occurrences: dict[int, Symbol], memo: StatementRoles
) -> list[Item]:
    syntax = analysis.syntax
    tokens, parsed, source = syntax.tokens, syntax.parsed, analysis.source
    fresh: StatementRoles = {}
    placed: list[tuple[int, _Statement]] = []
    import_paths: dict[int, tuple[str, ...]] = {}
    children_start = 0
    for first, after, _, _, children_end in parsed.units:
        base = tokens[first].start
        text = statement_key(source, syntax.lex, first, after)
        statement = fresh.get(text) or memo.get(text)
        if statement is None:
            nodes = parsed.tree.children[children_start:children_end]
            statement = _statement_pieces(nodes, tokens, first, after, base)
        fresh[text] = statement
        children_start = children_end
        placed.append((base, statement))
        for binding, path in statement.imports:
            import_paths[binding + base] = path
    memo.clear()
    memo.update(fresh)
    items: list[Item] = []
    for base, statement in placed:
        for start, end, token_type, modifiers, receiver, is_ident in statement.entries:
            start += base
            if is_ident:
                symbol = occurrences.get(start)
                if symbol is not None:
                    token_type = _SYMBOL_TYPES[symbol.kind]
                    modifiers = DECLARATION if symbol.start == start else 0
                elif receiver >= 0:
                    member = source[start : end + base]
                    if _is_std_receiver(occurrences.get(receiver + base), member, import_paths):
                        modifiers = READONLY
                if token_type < 0:
                    continue
            items.append((start, end + base, token_type, modifiers))
    return items


def _statement_pieces(
    nodes: list[Node], tokens: list[Token], first: int, after: int, base: int
) -> _Statement:
    """Structural roles of one statement, as `_tree_roles` finds them, relative."""
    program = Node("program", 0, 0, nodes)
    roles = _tree_roles(program, tokens, {})
    receivers: dict[int, int] = {}
    for node in program.walk():
        if node.kind == "member" and node.token >= 0 and node.children:
            receiver = node.children[0]
            if receiver.kind == "name" and roles.get(tokens[node.token].start) == (PROPERTY, 0):
                receivers[tokens[node.token].start] = receiver.start
    import_paths: dict[int, tuple[str, ...]] = {}
    for node in program.walk():
        if node.kind == "use" and len(node.children) > 1:
            binding = node.children[-1]
            import_paths[binding.start - base] = tuple(
                tokens[item.token].text for item in node.children
            )
    entries: list[_Entry] = []
    for token in tokens[first:after]:
        kind = token.kind
        start, end = token.start - base, token.end - base
        if kind is Kind.IDENT:
            role = roles.get(token.start)
            if role is None and token.text in RESERVED_WORDS:
                role = (KEYWORD, 0)
            token_type, modifiers = role if role is not None else (-1, 0)
            receiver = receivers.get(token.start, base - 1) - base
            entries.append((start, end, token_type, modifiers, receiver, True))
        elif kind is Kind.STRING:
            entries.append((start, end, STRING, 0, -1, False))
        elif kind is Kind.NUMBER:
            entries.append((start, end, NUMBER, 0, -1, False))
        elif kind is Kind.OPERATOR and token.text not in _PUNCTUATION_OPERATORS:
            entries.append((start, end, OPERATOR, 0, -1, False))
    return _Statement(tuple(entries), tuple(import_paths.items()))


def _is_std_receiver(
    symbol: Symbol | None, member: str, import_paths: dict[int, tuple[str, ...]]
) -> bool:
    if symbol is None or symbol.kind is not SymbolKind.IMPORT:
        return False
    path = import_paths.get(symbol.start)
    module = std_module_for_import(path) if path is not None else None
    return module is not None and std_member(module, member) is not None


# --------------------------------------------------------------------------- roles


def _occurrence_map(index: LexicalIndex) -> dict[int, Symbol]:
    """Start offset of every definition and resolved reference -> its symbol."""
    found: dict[int, Symbol] = {}
    for symbol in index.symbols:
        found[symbol.start] = symbol
        for start, _ in symbol.references:
            found[start] = symbol
    return found


def _tree_roles(tree: Node, tokens: list[Token], occurrences: dict[int, Symbol]) -> dict[int, Role]:
    """Structural roles keyed by token start offset."""
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
    return roles


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
    if token.text == "await" and following is not None and following.kind is Kind.LPAREN:
        roles[token.start] = (KEYWORD, 0)
        return
    modifiers = READONLY if _is_std_member(node, token, occurrences, import_paths) else 0
    roles[token.start] = (PROPERTY, modifiers)


def _is_std_member(
    node: Node,
    token: Token,
    occurrences: dict[int, Symbol],
    import_paths: dict[int, tuple[str, ...]],
) -> bool:
    receiver = node.children[0] if node.children else None
    if receiver is None or receiver.kind != "name":
        return False
    symbol = occurrences.get(receiver.start)
    if symbol is None or symbol.kind is not SymbolKind.IMPORT:
        return False
    path = import_paths.get(symbol.start)
    module = std_module_for_import(path) if path is not None else None
    return module is not None and std_member(module, token.text) is not None


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


# --------------------------------------------------------------------------- encoding


def _utf16_width(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _encode(source: str, items: list[Item]) -> list[int]:
    """LSP relative encoding with UTF-16 columns, computed incrementally."""
    data: list[int] = []
    ascii_source = source.isascii()
    line = 0
    line_start = 0
    previous_line = 0
    previous_column = 0
    cursor = 0  # offset whose UTF-16 column on `line` is `cursor_column`
    cursor_column = 0
    for start, end, token_type, modifiers in items:
        newline = source.rfind("\n", cursor, start)
        if newline != -1:
            line += source.count("\n", cursor, newline + 1)
            line_start = newline + 1
            cursor, cursor_column = line_start, 0
        if ascii_source:
            column = start - line_start
            length = end - start
        else:
            column = cursor_column + _utf16_width(source[cursor:start])
            length = _utf16_width(source[start:end])
        cursor, cursor_column = end, column + length
        delta_line = line - previous_line
        delta_column = column - previous_column if delta_line == 0 else column
        data.extend((delta_line, delta_column, length, token_type, modifiers))
        previous_line, previous_column = line, column
    return data
