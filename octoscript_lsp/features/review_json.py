"""The tool-call review as JSON: the CLI's `tool-calls` keys and the
`octoscript/toolCalls` object, with 1-based line/column in code points and
UTF-8 byte spans. `analysis/tool_call_review.py` finds the calls; this module renders them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..analysis.tool_call_review import (
    HintReport,
    ImportedModuleCallHint,
    ToolCallHint,
    catalog_status,
    hints_for_syntax,
    label_for,
    tool_call_label,
)
from ..catalogs.tools import is_valid_tool_name
from ..syntax.check import SyntaxResult, byte_offsets

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore


class _Json:
    """Serializes hints with 1-based line/column and UTF-8 byte spans."""

    def __init__(self, syntax: SyntaxResult, catalogs: CatalogStore | None) -> None:
        self.syntax = syntax
        self.catalogs = catalogs
        self.to_byte = byte_offsets(syntax.source)

    def callee(self, start: int, end: int) -> dict[str, int]:
        line, column = self.syntax.line_column(start)
        return {
            "line": line,
            "column": column,
            "start_byte": self.to_byte(start),
            "end_byte": self.to_byte(end),
        }

    def name(self, hint: ToolCallHint) -> dict[str, Any]:
        if hint.literal_start is None or hint.literal_end is None:
            return {"kind": "dynamic"}
        # Like the label, the value is shown only when it is a valid catalog
        # tool name: anything else is never echoed (null; the label digests it).
        value = hint.literal_value
        return {
            "kind": "literal",
            "value": value if value is not None and is_valid_tool_name(value) else None,
            "start_byte": self.to_byte(hint.literal_start),
            "end_byte": self.to_byte(hint.literal_end),
        }

    def tool_call(self, hint: ToolCallHint) -> dict[str, Any]:
        return {
            "callee": self.callee(hint.callee_start, hint.callee_end),
            "kind": hint.kind,
            "name": self.name(hint),
            "label": tool_call_label(hint, self.syntax.source),
            "catalog": catalog_status(hint, self.catalogs),
        }

    def imported_call(self, hint: ImportedModuleCallHint) -> dict[str, Any]:
        return {
            "callee": self.callee(hint.callee_start, hint.callee_end),
            "module_path": list(hint.module_path),
            "method": hint.method,
            "label": label_for(hint.dotted),
        }


def diagnostics_json(result: SyntaxResult) -> list[dict[str, Any]]:
    """Syntax diagnostics with 1-based line/column in code points (CLI shape)."""
    out = []
    for diagnostic in result.diagnostics:
        line, column = result.line_column(diagnostic.offset)
        out.append({"line": line, "column": column, "message": diagnostic.message})
    return out


def empty_hints_json() -> dict[str, Any]:
    return {
        "tool_calls": [],
        "tool_calls_truncated": False,
        "imported_module_calls": [],
        "imported_module_calls_truncated": False,
    }


def hints_json(
    report: HintReport, syntax: SyntaxResult, catalogs: CatalogStore | None = None
) -> dict[str, Any]:
    if not syntax.valid:
        return empty_hints_json()
    out = _Json(syntax, catalogs)
    return {
        "tool_calls": [out.tool_call(hint) for hint in report.tool_calls],
        "tool_calls_truncated": report.tool_calls_truncated,
        "imported_module_calls": [out.imported_call(hint) for hint in report.imported_module_calls],
        "imported_module_calls_truncated": report.imported_module_calls_truncated,
    }


def tool_calls_json(result: SyntaxResult, catalogs: CatalogStore | None = None) -> dict[str, Any]:
    """The CLI's hint keys for one checked text."""
    return hints_json(hints_for_syntax(result), result, catalogs)
