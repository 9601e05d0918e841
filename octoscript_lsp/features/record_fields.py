"""Static record fields at member sites: field completion.

It renders `analysis/resolution`'s `StaticRecordFields` (completion index,
metadata prefix); hover and definition render its `StaticRecordField`
(navigation index, valid source only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis.record_scan import RecordField
from .completion_context import CompletionContext

if TYPE_CHECKING:
    from ..analysis.sites import MemberSite

FIELD_DETAIL = "static record field; direct literal, child literal, or alias"


def field_completion(
    context: CompletionContext, site: MemberSite, fields: tuple[RecordField, ...]
) -> types.CompletionList:
    """The `fields` a static record holds at the site."""
    analysis = context.analysis
    index = analysis.completion_index
    prefix_end = analysis.metadata_prefix_end
    report = analysis.records
    incomplete = index.incomplete or report.truncated or report.aliases_truncated
    if report.aliases_truncated or site.member_end > min(prefix_end, report.prefix_end):
        return types.CompletionList(is_incomplete=incomplete, items=[])
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        types.CompletionItem(
            label=entry.name,
            kind=types.CompletionItemKind.Field,
            detail=FIELD_DETAIL,
            text_edit=types.TextEdit(range=edit_range, new_text=entry.name),
        )
        for entry in sorted(fields, key=lambda entry: entry.name)
    ]
    return types.CompletionList(is_incomplete=incomplete, items=items)
