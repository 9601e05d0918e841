"""Static record shapes at member sites: field completion, hover and definition."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lsprotocol import types

    from ..analysis.document import DocumentAnalysis
    from ..analysis.sites import MemberSite
    from .completion import CompletionContext
    from .positions import PositionMap


def field_completion(context: CompletionContext, site: MemberSite) -> types.CompletionList | None:
    return None


def field_hover(
    analysis: DocumentAnalysis, positions: PositionMap, site: MemberSite
) -> types.Hover | None:
    return None


def field_definition(analysis: DocumentAnalysis, offset: int) -> tuple[int, int] | None:
    return None
