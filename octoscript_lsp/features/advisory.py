"""Advisory diagnostics against a valid catalog.

They say what the host's catalog does not list; they are hints (Warning or
Information), never errors, and appear only while the relevant catalog is
valid: an absent or discarded catalog says nothing about what exists.
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.hints import ImportedModuleCallHint, catalog_status, expected_format
from ..catalogs.store import CatalogState, CatalogStore
from ..syntax.tokens import Kind, Token, first_token_from
from .diagnostics import SOURCE
from .positions import PositionMap

CODE_UNLISTED_TOOL = "unlisted-tool"
CODE_TOOL_FORMAT = "tool-format-mismatch"
CODE_UNLISTED_MEMBER = "unlisted-module-member"
CODE_MISSING_INPUT = "missing-input-field"
CODE_UNKNOWN_INPUT = "unknown-input-field"

# Bounds the per-document advisory output like the syntax diagnostics.
MAX_ADVISORY_DIAGNOSTICS = 64


def advisory_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore
) -> list[types.Diagnostic]:
    if analysis.syntax is None or not analysis.valid:
        return []
    found: list[types.Diagnostic] = []
    found.extend(_tool_name_diagnostics(analysis, positions, catalogs))
    found.extend(_module_diagnostics(analysis, positions, catalogs))
    return found[:MAX_ADVISORY_DIAGNOSTICS]


def _diagnostic(
    positions: PositionMap,
    start: int,
    end: int,
    message: str,
    code: str,
    severity: types.DiagnosticSeverity = types.DiagnosticSeverity.Warning,
) -> types.Diagnostic:
    return types.Diagnostic(
        range=positions.range(start, end),
        message=message,
        severity=severity,
        source=SOURCE,
        code=code,
    )


def _tool_name_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore
) -> list[types.Diagnostic]:
    if catalogs.tool_catalog_state is not CatalogState.VALID:
        return []
    out = []
    for hint in analysis.hints.tool_calls:
        if hint.literal_start is None or hint.literal_end is None or not hint.literal_value:
            continue  # dynamic, undecodable, or still being typed (`""`)
        status = catalog_status(hint, catalogs)
        if status == "unlisted":
            out.append(
                _diagnostic(
                    positions,
                    hint.literal_start,
                    hint.literal_end,
                    "the tool catalog does not list this tool",
                    CODE_UNLISTED_TOOL,
                )
            )
        elif status == "format-mismatch":
            out.append(
                _diagnostic(
                    positions,
                    hint.literal_start,
                    hint.literal_end,
                    f"this tool is not listed with the {expected_format(hint.kind)} format that "
                    f"tool.{hint.kind} uses",
                    CODE_TOOL_FORMAT,
                )
            )
    return out


def _module_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore
) -> list[types.Diagnostic]:
    catalog = catalogs.module_catalog
    if catalogs.module_catalog_state is not CatalogState.VALID or catalog is None:
        return []
    out = []
    tokens = analysis.syntax.tokens if analysis.syntax else []
    for hint in analysis.hints.imported_module_calls:
        if not catalog.knows(hint.module_path) or hint.module_path[:2] == ("mod", "std"):
            continue
        path = (*hint.module_path, hint.method)
        descriptor = catalog.descriptor(path)
        if descriptor is None:
            if catalog.is_leaf(hint.module_path):
                continue  # calling into a leaf: nothing to list beneath it
            out.append(
                _diagnostic(
                    positions,
                    hint.callee_start,
                    hint.callee_end,
                    f"the module catalog does not list {'.'.join(path)}",
                    CODE_UNLISTED_MEMBER,
                    types.DiagnosticSeverity.Information,
                )
            )
            continue
        if descriptor.is_shaped:
            out.extend(_input_diagnostics(tokens, positions, hint, descriptor))
    return out


def _input_diagnostics(
    tokens: list[Token], positions: PositionMap, hint: ImportedModuleCallHint, descriptor
) -> list[types.Diagnostic]:
    keys = _literal_record_keys(tokens, hint.callee_end)
    if keys is None:
        return []
    out = []
    known = {field.name for field in descriptor.input_fields}
    present = {name for name, _, _ in keys}
    for name, start, end in keys:
        if name not in known:
            out.append(
                _diagnostic(
                    positions,
                    start,
                    end,
                    f"`{name}` is not an input field of this call",
                    CODE_UNKNOWN_INPUT,
                )
            )
    missing = [f.name for f in descriptor.input_fields if f.required and f.name not in present]
    if missing:
        out.append(
            _diagnostic(
                positions,
                hint.callee_start,
                hint.callee_end,
                "missing required input field"
                + ("s " if len(missing) > 1 else " ")
                + ", ".join(f"`{name}`" for name in missing),
                CODE_MISSING_INPUT,
            )
        )
    return out


def _literal_record_keys(tokens: list[Token], callee_end: int) -> list[tuple[str, int, int]] | None:
    """Root keys of `callee({k: v, ...})` when the first argument is a record literal."""
    index = first_token_from(tokens, callee_end)
    if index + 1 >= len(tokens):
        return None
    if tokens[index].kind is not Kind.LPAREN or tokens[index + 1].kind is not Kind.LBRACE:
        return None
    keys: list[tuple[str, int, int]] = []
    depth = 0
    expecting_key = True
    for token in tokens[index + 1 :]:
        kind = token.kind
        if kind in (Kind.LBRACE, Kind.LPAREN, Kind.LBRACKET):
            depth += 1
            if depth == 1:
                expecting_key = True
            continue
        if kind in (Kind.RBRACE, Kind.RPAREN, Kind.RBRACKET):
            depth -= 1
            if depth == 0:
                return keys
            continue
        if depth != 1:
            continue
        if kind is Kind.COMMA or kind is Kind.NEWLINE:
            expecting_key = True
        elif expecting_key and kind is Kind.IDENT:
            keys.append((token.text, token.start, token.end))
            expecting_key = False
        else:
            expecting_key = False
        if kind is Kind.END:
            return None
    return None
