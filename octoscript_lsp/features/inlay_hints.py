"""textDocument/inlayHint, answered only for clients that declare support.

- Parameter names before the arguments of a call to a named function (`fn`)
  with two or more parameters; an argument that is just the parameter's own
  name gets none.
- `→ promise` after a call of a deferred catalog method whose result is not
  awaited (`.await()`), so an unawaited handle is visible where it is made.

Only the source before the first syntax error is considered, and only hints
inside the requested range are answered.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..catalogs.model import CallMode
from ..catalogs.store import CatalogStore
from ..limits import MIN_NAMED_PARAMETERS
from ..syntax.tokens import Token, first_token_from
from ..syntax.tree import Node, SymbolKind
from .positions import PositionMap

PROMISE_LABEL = "→ promise"


def client_asks(capabilities: types.ClientCapabilities | None) -> bool:
    text_document = capabilities.text_document if capabilities else None
    return bool(text_document and text_document.inlay_hint is not None)


def inlay_hints(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    range_start: int,
    range_end: int,
    catalogs: CatalogStore | None,
) -> list[types.InlayHint]:
    syntax = analysis.syntax
    if syntax is None:
        return []
    prefix_end = analysis.metadata_prefix_end
    calls = [
        node
        for node in syntax.parsed.tree.walk()
        if node.kind == "call"
        and node.end <= prefix_end
        and node.start <= range_end
        and range_start <= node.end
    ]
    found = _parameter_hints(analysis, calls) + _promise_hints(analysis, calls, catalogs)
    found.sort(key=lambda hint: hint.offset)
    return [hint.to_lsp(positions) for hint in found if range_start <= hint.offset <= range_end]


@dataclass(frozen=True, slots=True)
class _Hint:
    offset: int
    label: str
    kind: types.InlayHintKind

    def to_lsp(self, positions: PositionMap) -> types.InlayHint:
        parameter = self.kind is types.InlayHintKind.Parameter
        return types.InlayHint(
            position=positions.position(self.offset),
            label=self.label,
            kind=self.kind,
            # A parameter name sits before its argument, a type after the call.
            padding_right=True if parameter else None,
            padding_left=None if parameter else True,
        )


# ---------------------------------------------------------------- parameter names


def _parameter_hints(analysis: DocumentAnalysis, calls: list[Node]) -> list[_Hint]:
    syntax = analysis.syntax
    index = analysis.completion_index  # with the safe-prefix limit applied above
    if syntax is None or index.truncated or not calls:
        return []
    parameters = _declared_parameters(syntax.parsed.tree, syntax.tokens)
    callee_declaration = {
        reference: symbol.start
        for symbol in index.symbols
        if symbol.kind is SymbolKind.FUNCTION
        for reference, _ in symbol.references
    }
    out = []
    for call in calls:
        callee, arguments = call.children[0], call.children[1:]
        if callee.kind != "name":
            continue
        names = parameters.get(callee_declaration.get(callee.start, -1), [])
        if len(names) < MIN_NAMED_PARAMETERS:
            continue
        for argument, name in zip(arguments, names, strict=False):
            if argument.kind == "name" and analysis.source[argument.start : argument.end] == name:
                continue
            out.append(_Hint(argument.start, f"{name}:", types.InlayHintKind.Parameter))
    return out


def _declared_parameters(tree: Node, tokens: list[Token]) -> dict[int, list[str]]:
    """Function-name offset -> parameter names, for every `fn` in the tree."""
    found: dict[int, list[str]] = {}
    for node in tree.walk():
        if node.kind != "fn" or len(node.children) < 2 or node.children[1].kind != "params":
            continue
        name = node.children[0]
        found[name.start] = [tokens[param.token].text for param in node.children[1].children]
    return found


# ---------------------------------------------------------------- unawaited promises


def _promise_hints(
    analysis: DocumentAnalysis, calls: list[Node], catalogs: CatalogStore | None
) -> list[_Hint]:
    catalog = catalogs.module_catalog if catalogs is not None else None
    syntax = analysis.syntax
    if catalog is None or syntax is None or not calls:
        return []
    deferred_callees = set()
    for hint in analysis.hints.imported_module_calls:
        descriptor = catalog.descriptor((*hint.module_path, hint.method))
        if descriptor is not None and descriptor.call_mode is CallMode.DEFERRED:
            deferred_callees.add((hint.callee_start, hint.callee_end))
    out = []
    for call in calls:
        callee = call.children[0]
        if (callee.start, callee.end) not in deferred_callees:
            continue
        if _awaited(syntax.tokens, call.end):
            continue
        out.append(_Hint(call.end, PROMISE_LABEL, types.InlayHintKind.Type))
    return out


def _awaited(tokens: list[Token], call_end: int) -> bool:
    index = first_token_from(tokens, call_end)
    return (
        index + 1 < len(tokens) and tokens[index].is_op(".") and tokens[index + 1].is_ident("await")
    )
