"""Completion of a catalog method with its required input fields filled in.

With `octoscript.completion.prefillRequiredFields` on and a client that
supports snippets, a shaped catalog method with required input fields is
inserted as `method({a: "", b: 0})` with each placeholder a tab stop. It
never adds `.await()`: whether to await is the author's choice. Off (the
default) the answer is exactly the reference's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
from lsprotocol import types

from ..analysis.catalog_fixes import placeholder
from ..analysis.sites import MemberSite
from ..catalogs.model import ModuleDescriptor

if TYPE_CHECKING:
    from .completion import CompletionContext

_SPACE = " \t"


def with_required_fields(
    context: CompletionContext,
    site: MemberSite,
    parent: tuple[str, ...] | None,
    answer: types.CompletionList,
) -> types.CompletionList:
    """`answer`, the catalog's members at `parent`, with snippets filling the
    required fields."""
    catalog = context.catalogs.module_catalog
    if not context.prefill or not answer.items or catalog is None or parent is None:
        return answer
    if _followed_by_call(context.analysis.source, site.member_end):
        return answer  # the arguments are there already
    items = [_prefilled(item, catalog.descriptor((*parent, item.label))) for item in answer.items]
    return types.CompletionList(is_incomplete=answer.is_incomplete, items=items)


def required_snippet(name: str, descriptor: ModuleDescriptor) -> str | None:
    """`name({a: ${1:""}, b: ${2:0}})$0`, or None when nothing is required."""
    if not descriptor.is_shaped:
        return None
    required = [field for field in descriptor.input_fields or () if field.required]
    if not required:
        return None
    members = ", ".join(
        f"{field.name}: ${{{stop}:{_escaped(placeholder(field))}}}"
        for stop, field in enumerate(required, start=1)
    )
    return f"{name}({{{members}}})$0"


def _prefilled(
    item: types.CompletionItem, descriptor: ModuleDescriptor | None
) -> types.CompletionItem:
    snippet = required_snippet(item.label, descriptor) if descriptor else None
    if snippet is None or item.text_edit is None:
        return item
    return attrs.evolve(
        item,
        insert_text_format=types.InsertTextFormat.Snippet,
        text_edit=types.TextEdit(range=item.text_edit.range, new_text=snippet),
    )


def _escaped(text: str) -> str:
    """Snippet syntax: `\\`, `$` and `}` are literal only when escaped."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _followed_by_call(source: str, offset: int) -> bool:
    while offset < len(source) and source[offset] in _SPACE:
        offset += 1
    return offset < len(source) and source[offset] == "("


def client_supports_snippets(capabilities: types.ClientCapabilities | None) -> bool:
    text_document = capabilities.text_document if capabilities else None
    completion = text_document.completion if text_document else None
    item = completion.completion_item if completion else None
    return bool(item and item.snippet_support)
