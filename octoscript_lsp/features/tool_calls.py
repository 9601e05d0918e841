"""Tool-call review in the editor: the `octoscript/toolCalls` object and code lenses.

Both read the hint report cached on the document analysis; nothing is
parsed again. Lens titles show only labels (a valid catalog tool name, a
BLAKE3 digest or `dynamic`), never a raw source name.

Each lens runs `octoscript.showToolCall`, a command of the server's own
(`executeCommandProvider`), so every client that runs lenses can run it:
its one argument names the call by label (`{"kind": "tool", "method":
"call", "label": "text.echo"}` or `{"kind": "module", "label":
"mod.app.weather.current"}`), and the command answers the call's catalog
entry (`analysis/tool_call_review.py`) and shows it as a message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.surfaces import tool_method
from ..analysis.tool_call_review import (
    CallEntry,
    catalog_status,
    label_for,
    module_entry,
    tool_call_label,
    tool_entry,
)
from ..limits import MAX_LENS_LABEL_CHARS
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


def code_lenses(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore | None
) -> list[types.CodeLens]:
    """One lens per direct or imported call, in source order."""
    if analysis.syntax is None or not analysis.valid:
        return []
    report = analysis.hints
    source = analysis.source
    found: list[tuple[int, int, str, dict[str, str]]] = []
    for hint in report.tool_calls:
        label = tool_call_label(hint, source)
        argument = {"kind": "tool", "method": hint.kind, "label": label}
        title = f"tool.{hint.kind}: {label} (catalog: {catalog_status(hint, catalogs)})"
        found.append((hint.callee_start, hint.callee_end, title, argument))
    for item in report.imported_module_calls:
        label = label_for(item.dotted)
        argument = {"kind": "module", "label": label}
        found.append((item.callee_start, item.callee_end, f"module call: {label}", argument))
    found.sort(key=lambda entry: entry[0])
    return [
        types.CodeLens(
            range=positions.range(start, end),
            command=types.Command(title=title, command=SHOW_TOOL_CALL_COMMAND, arguments=[arg]),
        )
        for start, end, title, arg in found
    ]


def refreshes_code_lenses(capabilities: types.ClientCapabilities | None) -> bool:
    """Whether the client takes `workspace/codeLens/refresh` (sent when catalogs change)."""
    workspace = capabilities.workspace if capabilities else None
    lenses = workspace.code_lens if workspace else None
    return bool(lenses and lenses.refresh_support)


class NotALensCall(ValueError):
    """`octoscript.showToolCall` arguments no lens sends."""


def show_tool_call(arguments: Sequence[object], catalogs: CatalogStore | None) -> CallEntry:
    """What `octoscript.showToolCall` answers for a lens's argument."""
    argument = arguments[0] if len(arguments) == 1 else None
    if not isinstance(argument, dict):
        raise NotALensCall("octoscript.showToolCall takes one object, as a code lens sends it")
    kind, label = argument.get("kind"), argument.get("label")
    if not isinstance(label, str) or len(label) > MAX_LENS_LABEL_CHARS:
        raise NotALensCall("octoscript.showToolCall: `label` must be a lens's label")
    if kind == "module":
        return module_entry(label, catalogs)
    method = argument.get("method")
    if kind != "tool" or not isinstance(method, str) or tool_method(method) is None:
        raise NotALensCall(
            "octoscript.showToolCall: `kind` must be `tool` (with a `method`) or `module`"
        )
    return tool_entry(method, label, catalogs)
