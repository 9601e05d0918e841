"""The member classifier: what a member site `recv.name` stands for, as one value.

Completion, hover, signature help and definition ask `resolve_member` and
render the value it returns; none of them keeps an order of checks of its
own. The orders are the reference's, one per `Purpose`, and read top to
bottom: `resolve_member` (hover, definition and signature help, over the
navigation index) and `_completion_meaning` (what may follow the dot, over
the completion index and the metadata prefix).

`MemberReceiver` answers the questions about a site's receiver, in the order
of each request: the `workflow` namespace, a direct import of a built-in
surface, a static record (`records`), a module call's result (`output_calls`),
a catalog module path through the import or an exact root-alias chain
(`aliases`), from the lexical index, the imports and the alias model. The
catalog lookups (`direct_member`, `call_outputs`, ...) are shared with
completion, hover and signature help, so they never disagree about what a
site names; everything the catalogs say is advisory.

Semantic tokens classify every member token of a document from the tree,
not from cursor sites: `classify_member_token` answers for one token from
what the tree and the index already say about it (whether it is called, the
`use` path its receiver's binding names), with the same values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING

from ..catalogs.model import (
    CallMode,
    CallShape,
    ModuleDescriptor,
    ModuleField,
    WorkflowField,
    find_field,
)
from ..catalogs.store import CatalogState
from ..limits import MAX_MODULE_PATH_SEGMENTS
from ..syntax.text import is_canonical_identifier
from ..syntax.tree import SymbolKind
from . import surfaces
from .aliases import AliasGraph
from .input_records import InputRecordSite
from .lexical import Symbol
from .output_calls import OutputCall, output_call_binding
from .record_scan import RecordField, field_named
from .records import RecordResolver
from .sites import MemberSite
from .statement_facts import ModuleImport

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore
    from .document import DocumentAnalysis

Span = tuple[int, int]


# ---------------------------------------------------------------- the receiver


class BuiltIn(Enum):
    """Built-in surfaces a direct import makes a receiver name."""

    TOOL = "tool methods"
    STD_MODULE = "std module members"
    STD_ROOT = "std namespace children"


@dataclass(frozen=True, slots=True)
class BuiltInMember:
    surface: BuiltIn
    module: surfaces.StdModule | None = None  # for STD_MODULE


def built_in_member(record: ModuleImport, site: MemberSite) -> BuiltInMember | None:
    """The built-in surface a site names directly (`tool.|`, `text.|`, `std.|`)."""
    return built_in_surface(record.path) if site.is_direct else None


def built_in_surface(path: tuple[str, ...]) -> BuiltInMember | None:
    """The built-in surface a `use` of `path` binds its name to, if any."""
    if surfaces.is_tool_import(path):
        return _TOOL
    module = surfaces.std_module_for_import(path)
    if module is not None and module.members:
        return BuiltInMember(BuiltIn.STD_MODULE, module)
    if tuple(path) == surfaces.STD_NAMESPACE_PATH:
        return _STD_ROOT
    return None


_TOOL = BuiltInMember(BuiltIn.TOOL)
_STD_ROOT = BuiltInMember(BuiltIn.STD_ROOT)


class MemberReceiver:
    """One member site of one version, each question about its receiver
    answered on first use (one receiver serves one request)."""

    def __init__(self, analysis: DocumentAnalysis, site: MemberSite) -> None:
        self.analysis = analysis
        self.site = site
        self.source = analysis.source

    def _within_prefix(self, end: int) -> bool:
        return end <= self.analysis.metadata_prefix_end

    def _names(self, spans: tuple[Span, ...]) -> tuple[str, ...]:
        return tuple(self.source[start:end] for start, end in spans)

    @cached_property
    def binding(self) -> Symbol | None:
        """The completion index's binding of the receiver name where it is written."""
        start, end = self.site.receiver
        return self.analysis.completion_index.visible(self.source[start:end], start)

    # ------------------------------------------------------------ direct imports

    @cached_property
    def direct_import(self) -> ModuleImport | None:
        """The `use` the receiver name is bound by, if its binding is one."""
        return self.analysis.visible_import(*self.site.receiver)

    @property
    def prefix_import(self) -> ModuleImport | None:
        """`direct_import`, for a site ending inside the metadata prefix."""
        return self.direct_import if self._within_prefix(self.site.member_end) else None

    @cached_property
    def built_in(self) -> BuiltInMember | None:
        """The built-in surface of a direct site inside the prefix."""
        record = self.prefix_import
        return None if record is None else built_in_member(record, self.site)

    def _extend_path(self, base: tuple[str, ...]) -> tuple[str, ...] | None:
        """`base` plus the receiver chain after its first name (16 segments at most)."""
        chain = self._names(self.site.receivers[1:])
        # The chain may not grow a path past the limit (a longer import stays as written).
        if len(base) <= MAX_MODULE_PATH_SEGMENTS < len(base) + len(chain):
            return None
        return (*base, *chain)

    @cached_property
    def fixed_path(self) -> tuple[str, ...] | None:
        """The direct import path plus the chain (no aliases)."""
        record = self.prefix_import
        return None if record is None else self._extend_path(record.path)

    @property
    def is_fixed_core(self) -> bool:
        """Under `mod.std`: fixed surfaces only, never extended by a catalog."""
        path = self.fixed_path
        return path is not None and surfaces.is_fixed_core_path(path)

    # ------------------------------------------------------------ catalog modules

    @cached_property
    def catalog_import(self) -> ModuleImport | None:
        """The `use` the receiver names directly, or through a stable root-alias chain."""
        analysis, symbol = self.analysis, self.binding
        if self.site.receiver[1] > analysis.metadata_prefix_end or symbol is None:
            return None
        imports, graph = analysis.imports, analysis.aliases
        if symbol.kind is SymbolKind.LET and (
            analysis.completion_index.truncated or imports.truncated or graph.truncated
        ):
            return None
        by_binding = {item.binding_start: item for item in imports.imports}
        record = graph.import_reached(symbol, by_binding)
        if record is None or symbol.kind is SymbolKind.IMPORT:
            return record
        group = graph.import_group(record.binding_start, set(by_binding))
        stable = graph.import_group_is_stable(group, self.site.receiver)
        return record if stable else None

    @cached_property
    def catalog_path(self) -> tuple[str, ...] | None:
        if not self._within_prefix(self.site.member_end):
            return None
        record = self.catalog_import
        return None if record is None else self._extend_path(record.path)

    # ------------------------------------------------------------ call results

    @cached_property
    def output_parent(self) -> tuple[str, ...] | None:
        """The object-child names between a result binding and the member (at most one)."""
        chain = self.site.receivers[1:]
        return self._names(chain) if len(chain) <= 1 else None

    @cached_property
    def output_call(self) -> OutputCall | None:
        """The module call whose result the receiver holds, through a stable alias group."""
        analysis, initial, graph = self.analysis, self.binding, self.analysis.aliases
        if (
            analysis.completion_index.truncated
            or self.output_parent is None
            or not self._within_prefix(self.site.member_end)
            or initial is None
            or initial.kind is not SymbolKind.LET
            or graph.truncated
        ):
            return None
        root = graph.output_root(initial)
        if root is None:
            return None
        call = output_call_binding(self.source, root, analysis.metadata_prefix_end)
        group = None if call is None else graph.output_group(root)
        if group is None or not graph.output_group_is_stable(group, self.site.receiver):
            return None
        return call

    # ------------------------------------------------------------ workflow data

    def workflow_path(self, navigation: bool = False) -> tuple[str, ...] | None:
        """`workflow.a.b` receiver names, unless a visible binding named `workflow` shadows it."""
        names = self._names(self.site.receivers)
        if names[0] != "workflow":
            return None
        analysis = self.analysis
        index = analysis.lexical if navigation else analysis.completion_index
        return names if index.visible("workflow", self.site.receiver[0]) is None else None

    # ------------------------------------------------------------ static records

    def record_fields(self, navigation: bool = False) -> tuple[RecordField, ...] | None:
        """Fields at the site when the receiver resolves to a stable static record.

        Completion reads the completion index up to the metadata prefix;
        navigation (hover, definition) the navigation index, valid source only.
        """
        analysis = self.analysis
        if navigation:
            index, prefix_end, binding = analysis.lexical, len(self.source), None
        else:
            index, prefix_end = analysis.completion_index, analysis.metadata_prefix_end
            binding = self.binding if self.site.receiver[1] <= prefix_end else None
        graph = (
            analysis.aliases
            if index is analysis.completion_index
            else AliasGraph(self.source, index, analysis.records)
        )
        resolver = RecordResolver(self.source, analysis.records, graph)
        return resolver.fields_for(self.site.receivers, prefix_end, binding)


def alias_metadata_truncated(analysis: DocumentAnalysis, receiver: Span) -> bool:
    """Alias edges ran out and the receiver is a `let` that might have been an alias."""
    if not analysis.aliases.truncated or receiver[1] > analysis.metadata_prefix_end:
        return False
    start, end = receiver
    symbol = analysis.completion_index.visible(analysis.source[start:end], start)
    return symbol is not None and symbol.kind is SymbolKind.LET


# ---------------------------------------------------------------- catalog lookups


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


# ---------------------------------------------------------------- the classification


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
    alias_truncated = alias_metadata_truncated(analysis, site.receiver)
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
