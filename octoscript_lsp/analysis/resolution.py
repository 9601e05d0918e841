"""The member classifier: what a member site `recv.name` stands for, as one value.

Completion, hover, signature help and definition ask `resolve_member` and
render the value it returns; none of them keeps an order of checks of its
own. The orders are the reference's, one per `Purpose`, and read top to
bottom: `resolve_member` (hover, definition and signature help, over the
navigation index) and `_completion_meaning` (what may follow the dot, over
the completion index and the metadata prefix).

Semantic tokens classify every member token of a document from the tree,
not from cursor sites: `classify_member_token` answers for one token from
what the tree and the index already say about it (whether it is called, the
`use` path its receiver's binding names), with the same values.

The receiver questions themselves are `members.MemberReceiver`'s, the
catalog lookups `catalog_members.py`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from ..catalogs.model import ModuleDescriptor, ModuleField, WorkflowField, find_field
from ..catalogs.store import CatalogState
from . import surfaces
from .catalog_members import direct_member, output_fields_for_member, workflow_field
from .members import BuiltIn, BuiltInMember, MemberReceiver, built_in_member, built_in_surface
from .output_calls import OutputCall
from .record_scan import RecordField, field_named
from .sites import MemberSite

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore
    from .document import DocumentAnalysis


class Purpose(Enum):
    """Which request asks: its order and rules."""

    NAVIGATION = "hover and definition"
    SIGNATURE = "signature help"
    COMPLETION = "completion"


@dataclass(frozen=True, slots=True)
class WorkflowDataField:
    """`workflow.input.x` or `workflow.outputs.step.x`: a field the host describes."""

    field: WorkflowField
    role: str


@dataclass(frozen=True, slots=True)
class StaticRecordField:
    """A key of a static record literal the receiver (or its alias chain) holds."""

    field: RecordField


@dataclass(frozen=True, slots=True)
class ToolMethodMember:
    """`tool.m` after `use mod.tool`; `method` is None for a name it has not."""

    method: surfaces.ToolMethod | None


@dataclass(frozen=True, slots=True)
class StdModuleMember:
    """`text.m` after `use mod.std.text`; `member` is None for a name it has not."""

    module: surfaces.StdModule
    member: surfaces.StdMember | None


@dataclass(frozen=True, slots=True)
class StdNamespaceChild:
    """`std.m` after `use mod.std`; `child` is None for a name it has not."""

    name: str
    child: surfaces.ImportPathChild | None


@dataclass(frozen=True, slots=True)
class CallOutputField:
    """A field of the output of the module call the receiver holds."""

    field: ModuleField


@dataclass(frozen=True, slots=True)
class CatalogMember:
    """A module the catalog describes at the receiver's path plus the member."""

    descriptor: ModuleDescriptor


@dataclass(frozen=True, slots=True)
class WorkflowNamespace:
    """Completion after `workflow.` (or deeper): the receiver names as typed."""

    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClosedStdPath:
    """Completion below `mod.std` deeper than its leaves: nothing exists there."""


@dataclass(frozen=True, slots=True)
class BuiltInPastError:
    """Completion on a direct `mod.tool` / std-module import past the first error."""


@dataclass(frozen=True, slots=True)
class StaticRecordFields:
    """Completion on a static record: the fields at the site."""

    fields: tuple[RecordField, ...]


@dataclass(frozen=True, slots=True)
class CatalogUntrusted:
    """Completion where the module catalog or the alias metadata cannot be
    trusted (unusable catalog, truncated imports or alias edges)."""

    alias_metadata_truncated: bool


@dataclass(frozen=True, slots=True)
class CallOutputFields:
    """Completion on a module call's result: the call and the child path below it."""

    call: OutputCall
    parent: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CatalogChildren:
    """Completion of the catalog's members at the module path the receiver
    stands for (a stable import or alias chain); None when it names no
    catalog path, or the fixed `mod.std` tree no catalog extends."""

    parent: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class AwaitKeyword:
    """`x.await(`: the language's await on a deferred call's promise, not a member."""


AWAIT = AwaitKeyword()


@dataclass(frozen=True, slots=True)
class _Nothing:
    """No meaning: the request answers as if there were no member site."""


NOTHING = _Nothing()

MemberResolution = (
    WorkflowDataField
    | StaticRecordField
    | ToolMethodMember
    | StdModuleMember
    | StdNamespaceChild
    | CallOutputField
    | CatalogMember
    | WorkflowNamespace
    | ClosedStdPath
    | BuiltInPastError
    | StaticRecordFields
    | CatalogUntrusted
    | CallOutputFields
    | CatalogChildren
    | AwaitKeyword
    | _Nothing
)


def resolve_member(
    analysis: DocumentAnalysis, site: MemberSite, catalogs: CatalogStore, purpose: Purpose
) -> MemberResolution:
    """The one classification of `site` for `purpose`."""
    name = analysis.source[site.member_start : site.member_end]
    if purpose is Purpose.COMPLETION:
        return _completion_meaning(analysis, site, catalogs, name)
    receiver = MemberReceiver(analysis, site)
    workflow = workflow_field(receiver, catalogs)
    if workflow is not None:
        return WorkflowDataField(*workflow)
    record_field = _static_record_field(receiver, name)
    if record_field is not None:
        return StaticRecordField(record_field)
    built_in = receiver.built_in
    if built_in is not None:
        return _built_in_value(built_in, name)
    if receiver.is_fixed_core:
        return NOTHING  # the fixed `mod.std` tree is never extended by a catalog
    if purpose is Purpose.NAVIGATION:
        outputs = output_fields_for_member(receiver, catalogs)
        found = None if outputs is None else find_field(outputs, name)
        if found is not None:
            return CallOutputField(found)
        start, end = site.receiver
        if analysis.lexical.visible(analysis.source[start:end], start) is None:
            return NOTHING
    descriptor = direct_member(receiver, catalogs)
    return NOTHING if descriptor is None else CatalogMember(descriptor)


def _completion_meaning(
    analysis: DocumentAnalysis, site: MemberSite, catalogs: CatalogStore, name: str
) -> MemberResolution:
    receiver = MemberReceiver(analysis, site)
    if catalogs.workflow.state is not CatalogState.ABSENT:
        path = receiver.workflow_path()
        if path is not None:
            return WorkflowNamespace(path)
    built_in = receiver.built_in
    if built_in is not None and built_in.surface is not BuiltIn.STD_ROOT:
        return _built_in_value(built_in, name)
    record = receiver.prefix_import
    if record is not None and surfaces.is_fixed_core_path(record.path):
        chain = tuple(analysis.source[start:end] for start, end in site.receivers)
        if record.path + chain[1:] != surfaces.STD_NAMESPACE_PATH:
            return ClosedStdPath()
        return _std_namespace_child(name)
    if site.member_end > analysis.metadata_prefix_end:
        direct = receiver.direct_import
        past = None if direct is None else built_in_member(direct, site)
        if past is not None and past.surface is not BuiltIn.STD_ROOT:
            return BuiltInPastError()
    fields = receiver.record_fields()
    if fields is not None:
        return StaticRecordFields(fields)
    alias_truncated = receiver.alias_metadata_truncated
    if analysis.imports.truncated or catalogs.modules.state.unavailable or alias_truncated:
        return CatalogUntrusted(alias_truncated)
    parent, call = receiver.output_parent, receiver.output_call
    if parent is not None and call is not None:
        return CallOutputFields(call, parent)
    return CatalogChildren(None if receiver.is_fixed_core else receiver.catalog_path)


def classify_member_token(
    receiver_import: tuple[str, ...] | None, name: str, called: bool
) -> MemberResolution:
    """What the member token `recv.name` is, for semantic tokens.

    `called`: a `(` follows the name; `receiver_import`: the `use` path of
    the import the receiver name (a plain name) is bound to, None for any
    other receiver. Only the meanings the tree and the index decide alone:
    `.await(` (`AWAIT`), a member of the built-in surface a direct import
    names (the values `resolve_member` gives for a direct site), else
    `NOTHING`.
    """
    if called and name == "await":
        return AWAIT
    built_in = None if receiver_import is None else built_in_surface(receiver_import)
    return NOTHING if built_in is None else _built_in_value(built_in, name)


def _built_in_value(built_in: BuiltInMember, name: str) -> MemberResolution:
    """The member `name` of a built-in surface."""
    if built_in.surface is BuiltIn.TOOL:
        return ToolMethodMember(surfaces.tool_method(name))
    if built_in.module is not None:
        return StdModuleMember(built_in.module, surfaces.member(built_in.module, name))
    return _std_namespace_child(name)


def _std_namespace_child(name: str) -> StdNamespaceChild:
    return StdNamespaceChild(name, surfaces.import_path_child(surfaces.STD_NAMESPACE_PATH, name))


def _static_record_field(receiver: MemberReceiver, name: str) -> RecordField | None:
    """The field a member names, by the navigation index (valid source only)."""
    analysis = receiver.analysis
    report = analysis.records
    if (
        analysis.lexical.truncated
        or report.aliases_truncated
        or receiver.site.member_end > report.prefix_end
    ):
        return None
    fields = receiver.record_fields(navigation=True)
    return None if fields is None else field_named(fields, name)
