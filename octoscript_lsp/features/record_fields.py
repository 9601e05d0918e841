"""Static record shapes at member sites: field completion, hover and definition.

Each function answers None when the site is not a known, stable static record
site, so the dispatcher goes on to the next member feature (the reference's
order). Completion uses the completion index and the diagnostic prefix;
hover and definition use the navigation index (valid source only) and refuse
when it is truncated or when alias edges were truncated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis.members import member_receiver
from ..analysis.record_scan import RecordField, field_named
from ..analysis.sites import member_site
from .completion_context import CompletionContext

if TYPE_CHECKING:
    from ..analysis.document import DocumentAnalysis
    from ..analysis.sites import MemberSite
    from .positions import PositionMap

FIELD_DETAIL = "static record field; direct literal, child literal, or alias"


def field_completion(context: CompletionContext, site: MemberSite) -> types.CompletionList | None:
    analysis = context.analysis
    index = analysis.completion_index
    prefix_end = analysis.metadata_prefix_end
    fields = member_receiver(analysis, site).record_fields()
    if fields is None:
        return None
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


def _field_for_member(analysis: DocumentAnalysis, site: MemberSite) -> RecordField | None:
    """The field a member names, by the navigation rules (hover, definition)."""
    report = analysis.records
    if (
        analysis.lexical.truncated
        or report.aliases_truncated
        or site.member_end > report.prefix_end
    ):
        return None
    fields = member_receiver(analysis, site).record_fields(navigation=True)
    if fields is None:
        return None
    return field_named(fields, analysis.source[site.member_start : site.member_end])


def field_hover(
    analysis: DocumentAnalysis, positions: PositionMap, site: MemberSite
) -> types.Hover | None:
    found = _field_for_member(analysis, site)
    if found is None:
        return None
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.PlainText, value=f"(static record field) {found.name}"
        ),
        range=positions.range(site.member_start, site.member_end),
    )


def field_definition(analysis: DocumentAnalysis, offset: int) -> tuple[int, int] | None:
    site = member_site(analysis.source, analysis.regions, offset)
    if site is None:
        return None
    found = _field_for_member(analysis, site)
    return None if found is None else found.span
