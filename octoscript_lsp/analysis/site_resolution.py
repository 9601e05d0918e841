"""The site classifier: what the cursor is at, as one value, per request.

Completion, hover, definition and signature help ask `resolve_site`, and
references, document highlights, prepareRename and rename ask its
catalog-free part `resolve_binding`; each renders the value it gets and none
tries the kinds of site (or picks the binding at the cursor) in an order of
its own. The orders are the reference's, one per `Request`, and read top
to bottom in `resolve_site` and the functions it calls. Easy to miss: a
`tool.` method has no hover of its own (the site falls through to input keys
and bindings); references, highlights and rename answer only over a complete
navigation index (`INDEX_INCOMPLETE` otherwise: an exhaustive answer would
be partial), and rename also takes the occurrence ending at the cursor, so a
cursor just past a name renames it.

Member sites are classified further by `resolution.resolve_member`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from ..catalogs.model import ModuleField, find_field
from ..limits import MAX_LEXICAL_SYMBOL_OCCURRENCES
from ..syntax.text import is_canonical_identifier
from ..syntax.tokens import Token
from ..syntax.tree import SymbolKind
from . import surfaces
from .input_records import InputRecordSite, input_record_site
from .lexical import Occurrence
from .resolution import (
    CallOutputField,
    CatalogMember,
    MemberResolution,
    Purpose,
    StaticRecordField,
    StdModuleMember,
    StdNamespaceChild,
    WorkflowDataField,
    alias_metadata_truncated,
    input_fields_for_site,
    resolve_member,
)
from .signatures import function_parameters
from .sites import (
    CallContext,
    ImportPathSite,
    MemberSite,
    ToolLiteralSite,
    call_context,
    direct_callee,
    import_path_site,
    member_site,
    tool_literal_site,
)

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore
    from .document import DocumentAnalysis


class Request(Enum):
    """Which request asks: the order in which it tries the kinds of site."""

    COMPLETION = "completion"
    HOVER = "hover"
    DEFINITION = "definition"
    REFERENCES = "references"
    HIGHLIGHT = "document highlight"
    RENAME = "rename"
    SIGNATURE = "signature help"


@dataclass(frozen=True, slots=True)
class ImportSegment:
    """A segment of a `use mod.` path (completion)."""

    site: ImportPathSite


@dataclass(frozen=True, slots=True)
class ToolNameLiteral:
    """The string argument of `tool.call(` and its kin (completion).
    `of_tool_import`: the receiver is bound to `use mod.tool`; the literal of
    another receiver claims the position all the same, and lists nothing."""

    site: ToolLiteralSite
    of_tool_import: bool


@dataclass(frozen=True, slots=True)
class Member:
    """A member site `recv.name` and what the member classifier says it is."""

    site: MemberSite
    meaning: MemberResolution


@dataclass(frozen=True, slots=True)
class InputKey:
    """A key of a module call's first-argument record; `field` is the catalog's
    field for hover (completion lists the level's fields and leaves it None);
    `alias_metadata_truncated`: the callee's receiver may be an alias the
    edge budget left out (completion's list is then incomplete)."""

    site: InputRecordSite
    field: ModuleField | None = None
    alias_metadata_truncated: bool = False


@dataclass(frozen=True, slots=True)
class BindingOccurrence:
    """A binding's definition or reference at the cursor (hover, definition,
    references, highlights, rename)."""

    occurrence: Occurrence


@dataclass(frozen=True, slots=True)
class BindingsInScope:
    """Completion of a name: the bindings visible at the cursor."""


@dataclass(frozen=True, slots=True)
class NamedFunctionCall:
    """A call of a function declared in this document (signature help)."""

    context: CallContext
    name: str
    parameters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AssertCall:
    """A call of a name a `use mod.std.assert` import binds (signature help)."""

    context: CallContext
    name: str


@dataclass(frozen=True, slots=True)
class MemberCall:
    """A call of a member `recv.name(` (signature help)."""

    context: CallContext
    site: MemberSite
    meaning: MemberResolution


@dataclass(frozen=True, slots=True)
class _NoSite:
    """Nothing at the cursor: the request answers nothing."""


@dataclass(frozen=True, slots=True)
class _IndexIncomplete:
    """The navigation index is truncated: references, highlights and rename
    refuse rather than answer part of the occurrences."""


NO_SITE = _NoSite()
INDEX_INCOMPLETE = _IndexIncomplete()
#: Why those requests refuse (the reference's words).
INDEX_REFUSAL = f"the lexical index exceeds its {MAX_LEXICAL_SYMBOL_OCCURRENCES}-occurrence limit"

#: The requests that act on every occurrence of one binding.
_EXHAUSTIVE = frozenset({Request.REFERENCES, Request.HIGHLIGHT, Request.RENAME})

SiteResolution = (
    ImportSegment
    | ToolNameLiteral
    | Member
    | InputKey
    | BindingOccurrence
    | BindingsInScope
    | NamedFunctionCall
    | AssertCall
    | MemberCall
    | _IndexIncomplete
    | _NoSite
)

#: The member values hover shows (or, for a name the module has not, answers
#: nothing for); any other member site falls through to input keys and bindings.
_HOVER_MEMBERS = (
    WorkflowDataField,
    StaticRecordField,
    StdModuleMember,
    StdNamespaceChild,
    CallOutputField,
    CatalogMember,
)


def resolve_site(
    analysis: DocumentAnalysis, offset: int | None, catalogs: CatalogStore, request: Request
) -> SiteResolution:
    """The one classification of the cursor's site for `request` (None: a
    position outside the document)."""
    if request in _EXHAUSTIVE:
        return resolve_binding(analysis, offset, request)
    if offset is None:
        return NO_SITE
    if request is Request.COMPLETION:
        return _completion_site(analysis, offset, catalogs)
    if request is Request.SIGNATURE:
        return _call_site(analysis, offset, catalogs)
    found: SiteResolution = NO_SITE
    if not analysis.lexical.truncated:
        if request is Request.HOVER:
            found = _hover_site(analysis, offset, catalogs)
        else:
            found = _definition_member(analysis, offset, catalogs)
    if found is not NO_SITE:
        return found
    return _binding_at(analysis, offset, request)


def resolve_binding(
    analysis: DocumentAnalysis, offset: int | None, request: Request
) -> BindingOccurrence | _IndexIncomplete | _NoSite:
    """The binding references, highlights or rename (`request`) act on; they
    need no catalog. The index's truncation comes first, even for a position
    outside the document."""
    if request not in _EXHAUSTIVE:
        raise ValueError(f"{request.value} may answer more than a binding: ask resolve_site")
    if analysis.lexical.truncated:
        return INDEX_INCOMPLETE
    return NO_SITE if offset is None else _binding_at(analysis, offset, request)


def _binding_at(
    analysis: DocumentAnalysis, offset: int, request: Request
) -> BindingOccurrence | _NoSite:
    """The occurrence whose span holds the cursor (the one rule every request
    shares); rename also takes the one ending at the cursor."""
    index = analysis.lexical
    occurrence = index.occurrence_at(offset)
    if occurrence is None and request is Request.RENAME:
        occurrence = index.occurrence_ending_at(offset)
    return NO_SITE if occurrence is None else BindingOccurrence(occurrence)


def _completion_site(
    analysis: DocumentAnalysis, offset: int, catalogs: CatalogStore
) -> SiteResolution:
    source, regions = analysis.source, analysis.regions
    segment = import_path_site(source, regions, offset)
    if segment is not None:
        return ImportSegment(segment)
    literal = tool_literal_site(source, regions, _tokens(analysis), offset)
    if literal is not None:
        record = analysis.visible_import(*literal.receiver)
        return ToolNameLiteral(literal, record is not None and surfaces.is_tool_import(record.path))
    site = member_site(source, regions, offset)
    if site is not None:
        return Member(site, resolve_member(analysis, site, catalogs, Purpose.COMPLETION))
    key = input_record_site(source, regions, _tokens(analysis), offset, analysis.delimiters)
    if key is not None:
        return InputKey(key, None, alias_metadata_truncated(analysis, key.callee.receiver))
    return BindingsInScope()


def _hover_site(analysis: DocumentAnalysis, offset: int, catalogs: CatalogStore) -> SiteResolution:
    site = member_site(analysis.source, analysis.regions, offset)
    if site is not None and site.member_start != site.member_end:
        meaning = resolve_member(analysis, site, catalogs, Purpose.NAVIGATION)
        if isinstance(meaning, _HOVER_MEMBERS):
            return Member(site, meaning)
    return _known_input_key(analysis, offset, catalogs)


def _known_input_key(
    analysis: DocumentAnalysis, offset: int, catalogs: CatalogStore
) -> SiteResolution:
    """A key of the first literal-record argument of a shaped leaf call that
    the catalog describes."""
    catalog = catalogs.module_catalog
    if catalog is None or not catalog.descriptors:
        return NO_SITE
    site = input_record_site(
        analysis.source, analysis.regions, _tokens(analysis), offset, analysis.delimiters
    )
    index = analysis.completion_index
    if site is None or index.truncated or index.sites_truncated:
        return NO_SITE
    name = analysis.source[site.field[0] : site.field[1]]
    if not is_canonical_identifier(name) or name in site.declared:
        return NO_SITE
    fields = input_fields_for_site(analysis, site, catalogs)
    field = None if fields is None else find_field(fields, name)
    return NO_SITE if field is None else InputKey(site, field)


def _definition_member(
    analysis: DocumentAnalysis, offset: int, catalogs: CatalogStore
) -> SiteResolution:
    site = member_site(analysis.source, analysis.regions, offset)
    if site is None:
        return NO_SITE
    meaning = resolve_member(analysis, site, catalogs, Purpose.NAVIGATION)
    return Member(site, meaning) if isinstance(meaning, StaticRecordField) else NO_SITE


def _call_site(analysis: DocumentAnalysis, offset: int, catalogs: CatalogStore) -> SiteResolution:
    context = call_context(analysis.source, offset, analysis.delimiters)
    if context is None:
        return NO_SITE
    callee = direct_callee(analysis.source, context)
    if callee is not None:
        return _named_function(analysis, callee, context) or _direct_assert(
            analysis, callee, context
        )
    return _member_call(analysis, context, catalogs)


def _named_function(
    analysis: DocumentAnalysis, callee: tuple[int, int], context: CallContext
) -> NamedFunctionCall | None:
    index = analysis.completion_index
    prefix_end = analysis.metadata_prefix_end
    if callee[1] > prefix_end or not index.is_site(*callee):
        return None
    name = analysis.source[callee[0] : callee[1]]
    symbol = index.visible(name, callee[0])
    if symbol is None or symbol.kind is not SymbolKind.FUNCTION:
        return None
    parameters = function_parameters(analysis.source, symbol.end, prefix_end)
    if parameters is None:
        return None
    return NamedFunctionCall(context, name, tuple(parameters))


def _direct_assert(
    analysis: DocumentAnalysis, callee: tuple[int, int], context: CallContext
) -> SiteResolution:
    if analysis.imports.truncated:
        return NO_SITE
    record = analysis.visible_import(*callee)
    if record is None or record.path != surfaces.ASSERT.path:
        return NO_SITE
    return AssertCall(context, analysis.source[callee[0] : callee[1]])


def _member_call(
    analysis: DocumentAnalysis, context: CallContext, catalogs: CatalogStore
) -> SiteResolution:
    site = member_site(analysis.source, analysis.regions, context.callee_end)
    if site is None or site.member_end != context.callee_end:
        return NO_SITE
    if site.member_end > analysis.metadata_prefix_end or analysis.imports.truncated:
        return NO_SITE
    meaning = resolve_member(analysis, site, catalogs, Purpose.SIGNATURE)
    return MemberCall(context, site, meaning)


def _tokens(analysis: DocumentAnalysis) -> list[Token]:
    syntax = analysis.syntax
    return [] if syntax is None else syntax.tokens
