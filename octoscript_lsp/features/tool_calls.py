"""Tool-call review in the editor: the `octoscript/toolCalls` object and code lenses.

Both read the hint report cached on the document analysis; nothing is
parsed again. Lens titles show only labels (a valid catalog tool name, a
BLAKE3 digest or `dynamic`), never a raw source name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.tool_call_review import (
    ImportedModuleCallHint,
    ToolCallHint,
    catalog_status,
    label_for,
    tool_call_label,
)
from .positions import PositionMap
from .review_json import diagnostics_json, empty_hints_json, hints_json

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore

SHOW_TOOL_CALL_COMMAND = "octoscript.showToolCall"


def tool_calls_result(
    analysis: DocumentAnalysis, catalogs: CatalogStore | None, uri: str | None = None
) -> dict[str, Any]:
    """The CLI's `tool-calls` object for an open document (`uri` instead of `path`)."""
    head: dict[str, Any] = {} if uri is None else {"uri": uri}
    syntax = analysis.syntax
    if syntax is None:
        message = str(analysis.too_large)
        head.update(
            valid=False,
            diagnostics=[{"line": 1, "column": 1, "message": message}],
            diagnostics_truncated=False,
        )
        head.update(empty_hints_json())
        return head
    head.update(
        valid=syntax.valid,
        diagnostics=diagnostics_json(syntax),
        diagnostics_truncated=syntax.diagnostics_truncated,
    )
    head.update(hints_json(analysis.hints, syntax, catalogs))
    return head


def _direct_title(hint: ToolCallHint, source: str, catalogs: CatalogStore | None) -> str:
    label = tool_call_label(hint, source)
    return f"tool.{hint.kind}: {label} (catalog: {catalog_status(hint, catalogs)})"


def _imported_title(hint: ImportedModuleCallHint) -> str:
    return f"module call: {label_for(hint.dotted)}"


def _lens(positions: PositionMap, start: int, end: int, title: str) -> types.CodeLens:
    command = types.Command(title=title, command=SHOW_TOOL_CALL_COMMAND)
    return types.CodeLens(range=positions.range(start, end), command=command)


def code_lenses(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore | None
) -> list[types.CodeLens]:
    """One lens per direct or imported call, in source order."""
    if analysis.syntax is None or not analysis.valid:
        return []
    report = analysis.hints
    source = analysis.source
    found: list[tuple[int, int, str]] = [
        (hint.callee_start, hint.callee_end, _direct_title(hint, source, catalogs))
        for hint in report.tool_calls
    ]
    found.extend(
        (item.callee_start, item.callee_end, _imported_title(item))
        for item in report.imported_module_calls
    )
    found.sort(key=lambda entry: entry[0])
    return [_lens(positions, start, end, title) for start, end, title in found]
