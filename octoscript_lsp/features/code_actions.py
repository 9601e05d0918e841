"""textDocument/codeAction: the document's quick fixes (`analysis/fixes.py`),
each one offered edit, never applied."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.fixes import fixes
from ..analysis.quick_fix import Fix
from .advisory import to_diagnostic
from .positions import PositionMap

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore


def code_actions(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    uri: str,
    range_start: int,
    range_end: int,
    catalogs: CatalogStore | None,
) -> list[types.CodeAction]:
    """Quick fixes intersecting [range_start, range_end] (code-point offsets)."""
    found = fixes(analysis, range_start, range_end, catalogs)
    return [_to_action(fix, positions, uri) for fix in found]


def _to_action(fix: Fix, positions: PositionMap, uri: str) -> types.CodeAction:
    start, end, text = fix.edit
    edit = types.TextEdit(range=positions.range(start, end), new_text=text)
    return types.CodeAction(
        title=fix.title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[to_diagnostic(fix.about, positions)] if fix.about else None,
        is_preferred=True if fix.preferred else None,
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )
