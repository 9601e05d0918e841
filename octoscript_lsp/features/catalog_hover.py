"""Catalog-driven hover and signature help (module leaves, fields, workflow data)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lsprotocol import types

    from ..analysis.document import DocumentAnalysis
    from ..analysis.sites import CallContext, MemberSite
    from .catalog_assist import Catalogs


def leaf_signature(
    analysis: DocumentAnalysis, site: MemberSite, context: CallContext, catalogs: Catalogs
) -> types.SignatureHelp | None:
    return None


def member_hover(
    analysis: DocumentAnalysis, positions, site: MemberSite, catalogs: Catalogs
) -> types.Hover | None:
    """Module-catalog member and output-field hover; None when none applies."""
    return None


def input_key_hover(
    analysis: DocumentAnalysis, offset: int, catalogs: Catalogs
) -> types.Hover | None:
    return None


def member_definition(
    analysis: DocumentAnalysis, offset: int, catalogs: Catalogs
) -> tuple[int, int] | None:
    """The literal key a static record field member resolves to."""
    from .record_fields import field_definition

    return field_definition(analysis, offset)


def workflow_hover(
    analysis: DocumentAnalysis, positions, site: MemberSite, catalogs: Catalogs
) -> types.Hover | None:
    return None
