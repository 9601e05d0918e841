"""textDocument/codeAction: the document's quick fixes (`analysis/fixes.py`), the
"Ignore `CODE` on this line" fixes (`analysis/suppressions.py`) and the fix-all
action (`analysis/fix_all.py`, what `octoscript check --fix` writes), each an
offered edit, never applied.

Quick fixes are offered unless the client asks only for other kinds
(`context.only`). Fix-all is worked out only when asked for: by a kind it
belongs to in `only` (`source`, `source.fixAll`, `source.fixAll.octoscript`,
as `editor.codeActionsOnSave` asks), or when a person opens the menu
(`triggerKind` Invoked, no `only`); a lightbulb's automatic request never
pays for its rounds of analysis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis import advice
from ..analysis.document import DocumentAnalysis
from ..analysis.fix_all import fix_all
from ..analysis.fixes import Fix, fixes
from ..analysis.suppressions import IgnoreFix, ignore_fixes
from .diagnostics import problem_diagnostic, to_diagnostic
from .positions import PositionMap, changed_span

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore

FIX_ALL_KIND = "source.fixAll.octoscript"
FIX_ALL_TITLE = "Fix all: apply the safe fixes (as `octoscript check --fix`)"
# What codeActionProvider advertises.
KINDS = [types.CodeActionKind.QuickFix, FIX_ALL_KIND]


def asks_for(context: types.CodeActionContext | None, kind: str) -> bool:
    """Whether `context.only` lets `kind` through (no `only`: every kind)."""
    only = context.only if context is not None else None
    if only is None:
        return True
    return any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def asks_for_fix_all(context: types.CodeActionContext | None) -> bool:
    if context is None:
        return False
    if context.only is None:
        return context.trigger_kind == types.CodeActionTriggerKind.Invoked
    return asks_for(context, FIX_ALL_KIND)


def code_actions(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    uri: str,
    range_start: int,
    range_end: int,
    catalogs: CatalogStore | None,
    context: types.CodeActionContext | None = None,
) -> list[types.CodeAction]:
    """Quick fixes intersecting [range_start, range_end] (code-point offsets), then
    the ignore fixes of the lines it meets, then fix-all when asked for."""
    out: list[types.CodeAction] = []
    if asks_for(context, types.CodeActionKind.QuickFix):
        found = fixes(analysis, range_start, range_end, catalogs)
        out.extend(_to_action(fix, positions, uri) for fix in found)
        ignored = ignore_fixes(analysis, range_start, range_end, catalogs)
        out.extend(_to_action(fix, positions, uri) for fix in ignored)
    if asks_for_fix_all(context):
        action = fix_all_action(analysis, positions, uri, catalogs)
        if action is not None:
            out.append(action)
    return out


def _to_action(fix: Fix | IgnoreFix, positions: PositionMap, uri: str) -> types.CodeAction:
    """A quick fix, listing the finding it is about (a catalog finding or a
    syntax problem)."""
    start, end, text = fix.edit
    edit = types.TextEdit(range=positions.range(start, end), new_text=text)
    about = fix.about
    if about is None:
        diagnostics = None
    elif isinstance(about, advice.Finding):
        diagnostics = [to_diagnostic(about, positions)]
    else:
        diagnostics = [problem_diagnostic(about, positions)]
    return types.CodeAction(
        title=fix.title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=diagnostics,
        is_preferred=True if fix.preferred else None,
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def fix_all_action(
    analysis: DocumentAnalysis, positions: PositionMap, uri: str, catalogs: CatalogStore | None
) -> types.CodeAction | None:
    """One edit from the document to what `check --fix` writes; None when it writes nothing."""
    if analysis.syntax is None:
        return None
    outcome = fix_all(analysis.source, catalogs)
    if not outcome.changed:
        return None
    start, end, text = changed_span(analysis.source, outcome.text)
    edit = types.TextEdit(range=positions.range(start, end), new_text=text)
    return types.CodeAction(
        title=FIX_ALL_TITLE,
        kind=FIX_ALL_KIND,
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )
