"""What the advisory catalogs say a member site names: lookups, no rendering.

Completion, hover, signature help and the member classifier
(`resolution.py`) read the catalogs through these, so they can never
disagree about what a site resolves to. Everything the catalogs say is
advisory: nothing here loads a module or grants a capability.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..catalogs.model import (
    CallMode,
    CallShape,
    ModuleDescriptor,
    ModuleField,
    WorkflowField,
    find_field,
)
from ..syntax.text import is_canonical_identifier
from .input_records import InputRecordSite
from .members import MemberReceiver
from .output_calls import OutputCall
from .sites import MemberSite

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore
    from .document import DocumentAnalysis


def direct_member(receiver: MemberReceiver, catalogs: CatalogStore) -> ModuleDescriptor | None:
    """The exact catalog descriptor a member site names."""
    catalog = catalogs.module_catalog
    if catalogs.modules.state.unavailable or catalog is None:
        return None
    site = receiver.site
    method = receiver.source[site.member_start : site.member_end]
    if not is_canonical_identifier(method):
        return None
    if receiver.is_fixed_core:
        return None
    parent = receiver.catalog_path
    if parent is None:
        return None
    return catalog.descriptor(parent + (method,))


def call_outputs(
    analysis: DocumentAnalysis, call: OutputCall, catalogs: CatalogStore
) -> tuple[ModuleField, ...] | None:
    """The output fields of the module call a result binding holds."""
    if analysis.imports.truncated or catalogs.modules.state.unavailable:
        return None
    call_site = MemberSite((call.receiver,), call.member[0], call.member[1])
    module = direct_member(MemberReceiver(analysis, call_site), catalogs)
    if module is None or module.call_shape is not CallShape.SINGLE_JSON:
        return None
    expected = CallMode.DEFERRED if call.awaited else CallMode.SYNCHRONOUS
    if module.call_mode is not expected:
        return None
    return module.output_fields


def fields_at(fields: Sequence[ModuleField], path: Sequence[str]) -> Sequence[ModuleField] | None:
    for name in path:
        field = find_field(fields, name)
        if field is None or field.fields is None:
            return None
        fields = field.fields
    return fields


def output_fields_for_member(
    receiver: MemberReceiver, catalogs: CatalogStore
) -> Sequence[ModuleField] | None:
    """The output fields a member of a call's result may name."""
    parent, call = receiver.output_parent, receiver.output_call
    if parent is None or call is None:
        return None
    roots = call_outputs(receiver.analysis, call, catalogs)
    return None if roots is None else fields_at(roots, parent)


def output_role(configured_context: bool) -> str:
    return "Completed workflow output" if configured_context else "Workflow output"


def workflow_field(
    receiver: MemberReceiver, catalogs: CatalogStore
) -> tuple[WorkflowField, str] | None:
    """The workflow field a member names (navigation rules), with its role."""
    data = catalogs.workflow_data
    site = receiver.site
    if data is None or site.member_end > len(receiver.source):
        return None
    path = receiver.workflow_path(navigation=True)
    name = receiver.source[site.member_start : site.member_end]
    if path == ("workflow", "input"):
        found = data.catalog.input_field(name)
        return None if found is None else (found, "Workflow input")
    if path is not None and len(path) == 3 and path[1] == "outputs":
        found = data.step_field(path[2], name)
        return None if found is None else (found, output_role(data.context_configured))
    return None


def input_fields_for_site(
    analysis: DocumentAnalysis, site: InputRecordSite, catalogs: CatalogStore
) -> Sequence[ModuleField] | None:
    """The catalog input fields at the record level a key site sits in."""
    callee = site.callee
    if (
        analysis.imports.truncated
        or catalogs.modules.state.unavailable
        or site.field[1] > analysis.metadata_prefix_end
        or callee.member_end > analysis.metadata_prefix_end
    ):
        return None
    module = direct_member(MemberReceiver(analysis, callee), catalogs)
    if module is None or not module.is_shaped or module.input_fields is None:
        return None
    if site.parent is None:
        return module.input_fields
    parent = find_field(module.input_fields, site.parent)
    return None if parent is None else parent.fields
