"""The member classifier: what the receiver of a member site `recv.a.|` stands for.

The member classifier (`resolution.py`) asks these questions about a member
site's receiver, in the order of each request: the `workflow` namespace, a
direct import of a built-in surface, a static record (`records`), a module
call's result (`output_calls`), a catalog module path through the import or
an exact root-alias chain (`aliases`). `MemberReceiver` answers them from the
lexical index, the imports and the alias model; no catalog is read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING

from ..limits import MAX_MODULE_PATH_SEGMENTS
from ..syntax.text import is_canonical_identifier
from ..syntax.tree import SymbolKind
from . import surfaces
from .aliases import AliasGraph
from .lexical import Symbol
from .output_calls import OutputCall, output_call_binding
from .record_scan import RecordField
from .records import RecordResolver
from .sites import MemberSite
from .statement_facts import ModuleImport

if TYPE_CHECKING:
    from .document import DocumentAnalysis

Span = tuple[int, int]


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
        path = list(base)
        for segment in self._names(self.site.receivers[1:]):
            if not is_canonical_identifier(segment) or len(path) == MAX_MODULE_PATH_SEGMENTS:
                return None
            path.append(segment)
        return tuple(path)

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
        stable = graph.import_group_is_stable(self.source, group, self.site.receiver)
        return record if stable else None

    @cached_property
    def catalog_path(self) -> tuple[str, ...] | None:
        """The catalog path the receiver chain stands for."""
        if not self._within_prefix(self.site.member_end):
            return None
        record = self.catalog_import
        return None if record is None else self._extend_path(record.path)

    @property
    def alias_metadata_truncated(self) -> bool:
        return alias_metadata_truncated(self.analysis, self.site.receiver)

    # ------------------------------------------------------------ call results

    @cached_property
    def output_parent(self) -> tuple[str, ...] | None:
        """The object-child names between a result binding and the member (at most one)."""
        chain = self.site.receivers[1:]
        if len(chain) > 1:
            return None
        names = self._names(chain)
        return names if all(is_canonical_identifier(name) for name in names) else None

    @cached_property
    def output_call(self) -> OutputCall | None:
        """The module call whose result the receiver holds, through a stable alias group."""
        analysis = self.analysis
        index = analysis.completion_index
        if (
            index.truncated
            or self.output_parent is None
            or not self._within_prefix(self.site.member_end)
        ):
            return None
        start, end = self.site.receiver
        initial = self.binding
        graph = analysis.aliases
        if initial is None or initial.kind is not SymbolKind.LET or graph.truncated:
            return None
        root = graph.output_root(initial)
        if root is None:
            return None
        call = output_call_binding(self.source, root, analysis.metadata_prefix_end)
        if call is None:
            return None
        group = graph.output_group(root)
        if group is None or not graph.output_group_is_stable(self.source, group, (start, end)):
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
        if index.visible("workflow", self.site.receiver[0]) is not None:
            return None
        return names if all(is_canonical_identifier(name) for name in names) else None

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
