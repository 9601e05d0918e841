"""The member classifier: what a member site `recv.name` stands for, as one value.

Hover, signature help and definition ask `resolve_member` and render the
value it returns; none of them keeps an order of checks of its own. The
order is the reference's: workflow data (unless a binding shadows
`workflow`), a static record field, a built-in surface the receiver's
import names (`mod.tool`, a `mod.std` module, `mod.std` itself), then the
module catalog (a call result's output field, a module member). The
requests differ in two rules only, which `Purpose` carries: hover and
definition read a call's output fields and want the receiver bound in the
navigation index; signature help does neither.

The receiver questions themselves are `members.MemberReceiver`'s (memoized
per site and version), the catalog lookups `catalog_members.py`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from ..catalogs.model import ModuleDescriptor, ModuleField, WorkflowField, find_field
from . import surfaces
from .catalog_members import direct_member, output_fields_for_member, workflow_field
from .members import BuiltIn, member_receiver
from .record_scan import RecordField, field_named
from .sites import MemberSite

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore
    from .document import DocumentAnalysis


class Purpose(Enum):
    """Which request asks: its rules for the catalog step."""

    NAVIGATION = "hover and definition"
    SIGNATURE = "signature help"


@dataclass(frozen=True, slots=True)
class WorkflowData:
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


class _Nothing:
    """No meaning: the request answers as if there were no member site."""

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING = _Nothing()

MemberResolution = (
    WorkflowData
    | StaticRecordField
    | ToolMethodMember
    | StdModuleMember
    | StdNamespaceChild
    | CallOutputField
    | CatalogMember
    | _Nothing
)


def resolve_member(
    analysis: DocumentAnalysis, site: MemberSite, catalogs: CatalogStore, purpose: Purpose
) -> MemberResolution:
    """The one classification of `site` for `purpose`."""
    name = analysis.source[site.member_start : site.member_end]
    workflow = workflow_field(analysis, site, catalogs)
    if workflow is not None:
        return WorkflowData(*workflow)
    record_field = _static_record_field(analysis, site, name)
    if record_field is not None:
        return StaticRecordField(record_field)
    receiver = member_receiver(analysis, site)
    built_in = receiver.built_in
    if built_in is not None:
        if built_in.surface is BuiltIn.TOOL:
            return ToolMethodMember(surfaces.tool_method(name))
        if built_in.module is not None:
            return StdModuleMember(built_in.module, surfaces.member(built_in.module, name))
        return StdNamespaceChild(
            name, surfaces.import_path_child(surfaces.STD_NAMESPACE_PATH, name)
        )
    if receiver.is_fixed_core:
        return NOTHING  # the fixed `mod.std` tree is never extended by a catalog
    if purpose is Purpose.NAVIGATION:
        outputs = output_fields_for_member(analysis, site, catalogs)
        found = None if outputs is None else find_field(outputs, name)
        if found is not None:
            return CallOutputField(found)
        start, end = site.receiver
        if analysis.lexical.visible(analysis.source[start:end], start) is None:
            return NOTHING
    descriptor = direct_member(analysis, site, catalogs)
    return NOTHING if descriptor is None else CatalogMember(descriptor)


def _static_record_field(
    analysis: DocumentAnalysis, site: MemberSite, name: str
) -> RecordField | None:
    """The field a member names, by the navigation index (valid source only)."""
    report = analysis.records
    if (
        analysis.lexical.truncated
        or report.aliases_truncated
        or site.member_end > report.prefix_end
    ):
        return None
    fields = member_receiver(analysis, site).record_fields(navigation=True)
    return None if fields is None else field_named(fields, name)
