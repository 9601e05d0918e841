"""Semantic tokens' legend and what a token's text and the tree decide.

The classification's first and third layers (see `semantic_tokens`):
structural roles from the syntax tree (`use` path segments, definitions,
members after `.`, record keys, references, the contextual `catch`), the
binding kinds the index gives, and the items keywords, literals, operators
and comments make straight from the tokens and the lexer's comment spans.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ..analysis.lexical import Symbol
from ..analysis.resolution import AwaitKeyword, StdModuleMember, classify_member_token
from ..analysis.statement_index import StatementIndex
from ..syntax.tokens import IDENT, LPAREN, RESERVED_WORDS, Token, first_token_from
from ..syntax.tokens import NUMBER as NUMBER_TOKEN
from ..syntax.tokens import OPERATOR as OPERATOR_TOKEN
from ..syntax.tokens import STRING as STRING_TOKEN
from ..syntax.tree import SYMBOL_IMPORT, Node, SymbolKind
from .semantic_encoding import Item

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


def member_token_role(
    receiver: Symbol | None, member: str, called: bool, import_paths: dict[int, tuple[str, ...]]
) -> Role:
    """The role of a member token, from the member classifier's value
    (`receiver`: the binding of a plain-name receiver, if resolved)."""
    path = None
    if receiver is not None and receiver.kind is SYMBOL_IMPORT:
        path = import_paths.get(receiver.start)
    return member_role(path, member, called)


def member_role(path: tuple[str, ...] | None, member: str, called: bool) -> Role:
    """The role of a member token whose receiver is the import of `path` (None: not one)."""
    match classify_member_token(path, member, called):
        case AwaitKeyword():
            return (KEYWORD, 0)
        case StdModuleMember(member=found) if found is not None:
            return (PROPERTY, READONLY)
        case _:
            return (PROPERTY, 0)


# --------------------------------------------------------------------------- roles


def occurrence_map(index: StatementIndex) -> dict[int, Symbol]:
    """Start offset of every definition and resolved reference -> its symbol."""
    found: dict[int, Symbol] = {}
    for symbol in index.symbols:
        found[symbol.start] = symbol
        for start, _ in symbol.references:
            found[start] = symbol
    return found


def tree_roles(
    roots: list[Node], tokens: list[Token], occurrences: dict[int, Symbol]
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
    for node in members:
        _member_role(node, tokens, roles, occurrences, import_paths)
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
    called = following is not None and following.kind is LPAREN
    receiver = node.children[0] if node.children else None
    symbol = None
    if receiver is not None and receiver.kind == "name":
        symbol = occurrences.get(receiver.start)
    roles[token.start] = member_token_role(symbol, token.text, called, import_paths)


def apply_index_roles(roles: dict[int, Role], index: StatementIndex) -> None:
    for symbol in index.symbols:
        token_type = SYMBOL_TYPES_BY_NAME[symbol.kind._name_]
        roles[symbol.start] = (token_type, DECLARATION)
        for start, _ in symbol.references:
            roles[start] = (token_type, 0)


def _token_index_at(tokens: list[Token], offset: int) -> int | None:
    """Index of the first token starting at or after `offset`."""
    index = first_token_from(tokens, offset)
    return index if index < len(tokens) else None


# --------------------------------------------------------------------------- items


def token_items(tokens: list[Token], roles: dict[int, Role]) -> list[Item]:
    items: list[Item] = []
    for token in tokens:
        kind = token.kind
        if kind is IDENT:
            role = roles.get(token.start)
            if role is None and token.text in RESERVED_WORDS:
                role = (KEYWORD, 0)
            if role is not None:
                items.append((token.start, token.end, role[0], role[1]))
        elif kind is STRING_TOKEN:
            items.append((token.start, token.end, STRING, 0))
        elif kind is NUMBER_TOKEN:
            items.append((token.start, token.end, NUMBER, 0))
        elif kind is OPERATOR_TOKEN and token.text not in PUNCTUATION_OPERATORS:
            items.append((token.start, token.end, OPERATOR, 0))
    return items


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


def merge(first: list[Item], second: list[Item]) -> list[Item]:
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


def merge_flat(first: list[int], second: Sequence[Item]) -> list[int]:
    """`merge` of flat items (`semantic_encoding.Flat`) with a list of items."""
    if not second:
        return first
    merged: list[int] = []
    at, count = 0, len(first)
    for item in second:
        while at < count and first[at] <= item[0]:
            merged += first[at : at + 4]
            at += 4
        merged += item
    merged += first[at:]
    return merged
