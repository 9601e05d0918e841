"""The tests' reference for semantic tokens: the whole document classified at
once, from the whole-text tree and the lexical index, with none of the
per-statement templates, bindings and joining `semantic_tokens` answers by.
"""

from __future__ import annotations

from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.lexical import Symbol
from octoscript_lsp.features.positions import UTF16, PositionEncoding
from octoscript_lsp.features.semantic_tokens import (
    DECLARATION,
    KEYWORD,
    NUMBER,
    OPERATOR,
    PUNCTUATION_OPERATORS,
    STRING,
    SYMBOL_TYPES_BY_NAME,
    Item,
    comment_items,
    encode,
    member_role,
    tree_roles,
)
from octoscript_lsp.syntax.tokens import IDENT, LPAREN, RESERVED_WORDS
from octoscript_lsp.syntax.tokens import NUMBER as NUMBER_TOKEN
from octoscript_lsp.syntax.tokens import OPERATOR as OPERATOR_TOKEN
from octoscript_lsp.syntax.tokens import STRING as STRING_TOKEN
from octoscript_lsp.syntax.tree import SYMBOL_IMPORT


def reference_classify(analysis: DocumentAnalysis) -> list[Item]:
    """Classified spans in source order, block comments split per line."""
    syntax = analysis.syntax
    if syntax is None:
        return []
    index = analysis.completion_index
    tokens = syntax.tokens
    occurrences: dict[int, Symbol] = {}
    for symbol in index.symbols:
        occurrences[symbol.start] = symbol
        for start, _ in symbol.references:
            occurrences[start] = symbol
    roles, members, import_paths = tree_roles([syntax.parsed.tree], tokens)
    for node in members:
        if node.token < 0:
            continue
        token = tokens[node.token]
        following = node.token + 1
        called = following < len(tokens) and tokens[following].kind is LPAREN
        receiver = node.children[0] if node.children else None
        symbol = None
        if receiver is not None and receiver.kind == "name":
            symbol = occurrences.get(receiver.start)
        path = None
        if symbol is not None and symbol.kind is SYMBOL_IMPORT:
            path = import_paths.get(symbol.start)
        roles[token.start] = member_role(path, token.text, called)
    for symbol in index.symbols:
        token_type = SYMBOL_TYPES_BY_NAME[symbol.kind._name_]
        roles[symbol.start] = (token_type, DECLARATION)
        for start, _ in symbol.references:
            roles[start] = (token_type, 0)
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
    comments = comment_items(analysis.source, syntax.lex.comments)
    return sorted(items + comments)


def reference_full(
    analysis: DocumentAnalysis, encoding: PositionEncoding = UTF16
) -> types.SemanticTokens:
    return types.SemanticTokens(
        data=encode(analysis.source, reference_classify(analysis), encoding)
    )


def reference_range(
    analysis: DocumentAnalysis, start: int, end: int, encoding: PositionEncoding = UTF16
) -> types.SemanticTokens:
    items = [item for item in reference_classify(analysis) if item[0] < end and item[1] > start]
    return types.SemanticTokens(data=encode(analysis.source, items, encoding))
