"""Catalog-driven completion steps (tool names, module paths and members,
input and output record fields, workflow data, static record fields).

Each step returns None when its site does not apply so the dispatcher moves
on, or a finished answer when it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..catalogs.model import ToolFormat
from ..catalogs.store import CatalogStore

if TYPE_CHECKING:
    from lsprotocol import types

    from ..analysis.sites import MemberSite
    from .completion import CompletionContext

Catalogs = CatalogStore


def tool_names(catalogs: Catalogs, format_name: str) -> tuple[list[tuple[str, str]], bool]:
    """(name, description) of the catalog tools of one format, and unavailability."""
    if catalogs.tool_catalog_state.unavailable:
        return [], True
    catalog = catalogs.tool_catalog
    if catalog is None:
        return [], False
    entries = catalog.by_format(ToolFormat(format_name))
    return sorted((entry.name, entry.description) for entry in entries), False


def import_path_children(
    catalogs: Catalogs, prefix: tuple[str, ...]
) -> tuple[list[tuple[str, str | None, str | None]], bool]:
    """Catalog children of a `use mod.` prefix and whether the catalog is unavailable."""
    if catalogs.module_catalog_state.unavailable:
        return [], True
    return [], False


def input_record_completion(context: CompletionContext) -> types.CompletionList | None:
    return None


def workflow_member_completion(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    return None


def record_field_completion(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    from .record_fields import field_completion

    return field_completion(context, site)


def output_field_completion(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    return None


def module_member_completion(context: CompletionContext, site: MemberSite) -> types.CompletionList:
    from .completion import _list

    return _list([], context.imports_incomplete)
