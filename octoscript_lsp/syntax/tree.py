"""Syntax tree and scope events produced by the parser.

The tree carries code-point spans for structural features (folding,
selection, call sites). Binding structure is recorded separately as a flat
list of scope events in source order, so the analysis layer can rebuild the
lexical index exactly as the parser saw it, including in broken source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class SymbolKind(Enum):
    IMPORT = "import"
    FUNCTION = "function"
    LET = "let"
    PARAMETER = "parameter"
    LAMBDA_PARAMETER = "lambda parameter"
    LOOP_BINDING = "loop binding"


# The kinds a declaration records, as module constants: a read through the
# class goes through EnumType.__getattr__ on CPython 3.11 (see tokens.IDENT).
SYMBOL_IMPORT = SymbolKind.IMPORT
SYMBOL_FUNCTION = SymbolKind.FUNCTION
SYMBOL_LET = SymbolKind.LET
SYMBOL_PARAMETER = SymbolKind.PARAMETER
SYMBOL_LAMBDA_PARAMETER = SymbolKind.LAMBDA_PARAMETER
SYMBOL_LOOP_BINDING = SymbolKind.LOOP_BINDING


@dataclass(slots=True)
class Node:
    kind: str
    start: int
    end: int
    children: list[Node] = field(default_factory=list)
    # Index of the token that names this node (identifier, operator, keyword).
    token: int = -1

    def walk(self):
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


# Scope events, as tuples for speed: (tag, ...).
PUSH = 0  # (PUSH,)
POP = 1  # (POP, visibility_end_offset)
DEFINE = 2  # (DEFINE, token_index, SymbolKind, visibility_start_offset)
REFERENCE = 3  # (REFERENCE, token_index)
IMPORT = 4  # (IMPORT, path_segments, path_start, path_end, binding_token_index)
LET_INIT = 5  # (LET_INIT, binding_token_index, initializer_token_index)
