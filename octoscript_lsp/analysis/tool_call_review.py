"""Tool-call review hints: which tools and modules a script calls.

Two bounded, advisory reports over valid source (invalid source has none):

- direct hints: every `tool.call(`, `tool.start(`, `tool.call_json(` and
  `tool.start_json(` spelled directly in the token stream (not after a `.`),
  whatever is imported or shadowed, in source order; at most
  MAX_TOOL_CALL_HINTS, later sites only set `truncated`. The name is the
  first argument when that token is a string literal, otherwise dynamic;
- imported-module hints: `binding.method(` whose receiver resolves to a
  visible `use mod.<path>` binding, directly or through exact root aliases
  (`let a = b`, at most MAX_IMPORTED_MODULE_ALIAS_DEPTH hops), and only when
  every reference to every binding of that alias group is another exact
  group alias or a direct member call. Incomplete lexical, import or alias
  metadata fails closed: no hints, `truncated`.

Nothing here grants anything: the runtime still checks every real call.
Presentation labels never echo a name that is not a valid catalog tool name.

The catalog entry behind a tool-call lens (what `octoscript.showToolCall`
reveals, `tool_entry` and `module_entry`) is looked up from the lens's label
(`label_for`: a valid catalog tool name or module path, a BLAKE3 digest, or
`dynamic`) and the catalogs of the moment, never from the document: a label
that is no catalog name looks nothing up.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, count, repeat
from operator import attrgetter, eq
from typing import TYPE_CHECKING, Any

from blake3 import blake3

from ..catalogs.model import CONVERTER, ModuleDescriptor
from ..catalogs.tools import is_valid_tool_name
from ..limits import MAX_IMPORTED_MODULE_CALL_HINTS, MAX_TOOL_CALL_HINTS
from ..syntax.check import SyntaxResult
from ..syntax.member_calls import follows_dot, is_member_call, member_call_receivers
from ..syntax.tokens import Kind, Token
from ..syntax.trivia import decode_string_literal
from .aliases import AliasGraph
from .records import RecordReport
from .statement_facts import ImportReport, import_report, whole_text_facts
from .statement_index import StatementIndex, index_of
from .surfaces import TOOL_BINDING, TOOL_MODULE_PATH, is_fixed_core_path, tool_method

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore

DYNAMIC_LABEL = "dynamic"
DIGEST_PREFIX = "blake3:"

CATALOG_LISTED = "listed"
CATALOG_UNLISTED = "unlisted"
CATALOG_FORMAT_MISMATCH = "format-mismatch"
CATALOG_UNKNOWN = "unknown"
MODULE_BUILT_IN = "built-in"  # under `mod.tool` or `mod.std`: never in a module catalog


# ------------------------------------------------------------------ reports


@dataclass(frozen=True, slots=True)
class ToolCallHint:
    """A direct `tool.<kind>(` site; offsets are code points."""

    kind: str
    callee_start: int
    callee_end: int
    literal_start: int | None = None
    literal_end: int | None = None
    literal_value: str | None = None

    @property
    def is_literal(self) -> bool:
        return self.literal_start is not None


@dataclass(frozen=True, slots=True)
class ImportedModuleCallHint:
    """A `receiver.method(` site on an imported module; offsets are code points."""

    module_path: tuple[str, ...]
    method: str
    callee_start: int
    callee_end: int

    @property
    def dotted(self) -> str:
        return ".".join((*self.module_path, self.method))


@dataclass(frozen=True, slots=True)
class HintReport:
    tool_calls: tuple[ToolCallHint, ...]
    tool_calls_truncated: bool
    imported_module_calls: tuple[ImportedModuleCallHint, ...]
    imported_module_calls_truncated: bool


EMPTY_HINTS = HintReport((), False, (), False)


# ------------------------------------------------------------ direct hints


_text_of = attrgetter("text")


def direct_tool_call_kind(tokens: list[Token], index: int) -> str | None:
    if not is_member_call(tokens, index) or tokens[index].text != TOOL_BINDING:
        return None
    method = tokens[index + 2].text
    return method if tool_method(method) is not None else None


def _tool_call_hint(source: str, tokens: list[Token], index: int, kind: str) -> ToolCallHint:
    callee_start = tokens[index].start
    callee_end = tokens[index + 2].end
    if index + 4 >= len(tokens) or tokens[index + 4].kind is not Kind.STRING:
        return ToolCallHint(kind, callee_start, callee_end)
    literal = tokens[index + 4]
    value = decode_string_literal(source[literal.start : literal.end])
    return ToolCallHint(kind, callee_start, callee_end, literal.start, literal.end, value)


def collect_tool_calls(source: str, tokens: list[Token]) -> tuple[tuple[ToolCallHint, ...], bool]:
    """Direct sites in source order; later sites past the cap only set the flag."""
    found: list[ToolCallHint] = []
    truncated = False
    # Only a `tool` token can start one: those are picked out by builtins
    # (the review runs over the whole document after every pause in typing).
    named_tool = map(eq, map(_text_of, tokens), repeat(TOOL_BINDING))
    for index in compress(count(), named_tool):
        kind = direct_tool_call_kind(tokens, index)
        if kind is None or follows_dot(tokens, index):
            continue
        if len(found) == MAX_TOOL_CALL_HINTS:
            truncated = True
            continue
        found.append(_tool_call_hint(source, tokens, index, kind))
    return tuple(found), truncated


# --------------------------------------------------- imported-module hints


def collect_imported_module_calls(
    tokens: list[Token],
    lexical: StatementIndex,
    imports: ImportReport,
    aliases: AliasGraph,
) -> tuple[tuple[ImportedModuleCallHint, ...], bool]:
    """Scope-resolved module calls; nothing (and `truncated`) on partial metadata.

    A group is stable when every reference of its bindings is the target of
    a group alias or itself a module-call receiver (`ref.m(`, by tokens).
    """
    if lexical.truncated or imports.truncated or aliases.truncated:
        return (), True
    if not imports.imports:
        return (), False
    receivers = member_call_receivers(tokens)
    receiver_spans = {(tokens[index].start, tokens[index].end) for index in receivers}
    by_binding = {item.binding_start: item for item in imports.imports}
    bindings = set(by_binding)
    stable: dict[int, bool] = {}
    found: list[ImportedModuleCallHint] = []
    for index in receivers:
        receiver, method = tokens[index], tokens[index + 2]
        symbol = lexical.visible(receiver.text, receiver.start)
        module = None if symbol is None else aliases.import_reached(symbol, by_binding)
        if module is None:
            continue
        binding = module.binding_start
        if binding not in stable:
            group = aliases.import_group(binding, bindings)
            stable[binding] = aliases.group_references_allowed(group, receiver_spans.__contains__)
        if not stable[binding]:
            continue
        if len(found) == MAX_IMPORTED_MODULE_CALL_HINTS:
            return tuple(found), True
        found.append(ImportedModuleCallHint(module.path, method.text, receiver.start, method.end))
    return tuple(found), False


def collect_hints(
    syntax: SyntaxResult, lexical: StatementIndex, imports: ImportReport, aliases: AliasGraph
) -> HintReport:
    """Both reports for one parsed text; empty for invalid source."""
    if not syntax.valid:
        return EMPTY_HINTS
    tokens = syntax.tokens
    direct, direct_truncated = collect_tool_calls(syntax.source, tokens)
    imported, imported_truncated = collect_imported_module_calls(tokens, lexical, imports, aliases)
    return HintReport(direct, direct_truncated, imported, imported_truncated)


def hints_for_syntax(syntax: SyntaxResult) -> HintReport:
    """Build the lexical, import and alias views a standalone caller (the CLI) lacks."""
    if not syntax.valid:
        return EMPTY_HINTS
    length = len(syntax.source)
    lexical = index_of(syntax.statements, length)
    # One piece for the whole text: a single pass serves imports and aliases.
    facts = whole_text_facts(syntax.tokens, syntax.parsed.events, length)
    aliases = AliasGraph(syntax.source, lexical, RecordReport(facts))
    return collect_hints(syntax, lexical, import_report(facts), aliases)


# ------------------------------------------------------------ presentation


def label_for(name: str) -> str:
    """The name when it is a valid catalog tool name, else a fixed-length digest."""
    if is_valid_tool_name(name):
        return name
    digest = blake3(name.encode("utf-8", "surrogatepass")).hexdigest()
    return DIGEST_PREFIX + digest


def tool_call_label(hint: ToolCallHint, source: str) -> str:
    if not hint.is_literal:
        return DYNAMIC_LABEL
    if hint.literal_value is None:
        # An undecodable literal: digest its spelling, never show it.
        return label_for(source[hint.literal_start : hint.literal_end])
    return label_for(hint.literal_value)


def expected_format(kind: str) -> str:
    """The catalog format a direct call of method `kind` expects."""
    return tool_method(kind).format.value


def catalog_status(hint: ToolCallHint, catalogs: CatalogStore | None) -> str:
    """How a direct hint's literal name stands against a valid tool catalog."""
    if hint.literal_value is None:
        return CATALOG_UNKNOWN
    return tool_name_status(hint.literal_value, hint.kind, catalogs)


def tool_name_status(name: str, method: str, catalogs: CatalogStore | None) -> str:
    """How `tool.<method>(name, ...)` stands against a valid tool catalog."""
    catalog = catalogs.tool_catalog if catalogs is not None else None
    if catalog is None:
        return CATALOG_UNKNOWN
    entry = catalog.get(name)
    if entry is None:
        return CATALOG_UNLISTED
    if entry.format.value != expected_format(method):
        return CATALOG_FORMAT_MISMATCH
    return CATALOG_LISTED


def module_call_status(
    module_path: tuple[str, ...], method: str, catalogs: CatalogStore | None
) -> str:
    """How an imported-module call stands: built in, or against a valid module catalog."""
    if module_path == TOOL_MODULE_PATH or is_fixed_core_path(module_path):
        return MODULE_BUILT_IN
    catalog = catalogs.module_catalog if catalogs is not None else None
    if catalog is None:
        return CATALOG_UNKNOWN
    listed = catalog.descriptor((*module_path, method)) is not None
    return CATALOG_LISTED if listed else CATALOG_UNLISTED


# ------------------------------------------------------------ catalog entries


@dataclass(frozen=True, slots=True)
class CallEntry:
    """What the catalogs say about one lens's call; `entry` is catalog JSON."""

    label: str
    catalog: str  # a standing of `tool_call_review`: listed, unlisted, built-in, ...
    message: str
    entry: dict[str, Any] | None = None
    method: str | None = None  # `call`, `start`, ... for a direct tool call

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "catalog": self.catalog}
        if self.method is not None:
            out["method"] = self.method
        out["entry"] = self.entry
        out["message"] = self.message
        return out


def tool_entry(method: str, label: str, catalogs: CatalogStore | None) -> CallEntry:
    """The tool catalog's entry for `tool.<method>(label, ...)`."""
    call = f"tool.{method}"
    if tool_method(method) is None:
        raise ValueError(f"`{method}` is not a method of mod.tool")
    if label == DYNAMIC_LABEL:
        message = f"{call}: the tool name is computed when the script runs; no entry to show"
        return CallEntry(label, CATALOG_UNKNOWN, message, method=method)
    if not is_valid_tool_name(label):
        message = f"{call}: the name is not a catalog tool name, so no catalog lists it"
        return CallEntry("this tool", CATALOG_UNLISTED, message, method=method)
    status = tool_name_status(label, method, catalogs)
    if status == CATALOG_UNKNOWN:
        message = f"{call}: {label}: no valid tool catalog to look it up in"
        return CallEntry(label, status, message, method=method)
    if status == CATALOG_UNLISTED:
        message = f"{call}: the tool catalog does not list {label}"
        return CallEntry(label, status, message, method=method)
    found = catalogs.tool_catalog.get(label)
    if status == CATALOG_FORMAT_MISMATCH:
        message = (
            f"{call}: {label} is listed with the {found.format.value} format; "
            f"tool.{method} takes {expected_format(method)} tools"
        )
    else:
        message = f"{call}: {label} ({found.format.value} tool)" + _said(found.description)
    return CallEntry(label, status, message, CONVERTER.unstructure(found), method)


def module_entry(label: str, catalogs: CatalogStore | None) -> CallEntry:
    """The module catalog's descriptor for a call of module path `label`."""
    path = tuple(label.split("."))
    if not is_valid_tool_name(label) or len(path) < 2 or path[0] != "mod":
        message = "the module path is not one a catalog can list"
        return CallEntry("this module call", CATALOG_UNLISTED, message)
    status = module_call_status(path[:-1], path[-1], catalogs)
    if status == MODULE_BUILT_IN:
        return CallEntry(label, status, f"{label} is part of the fixed {'.'.join(path[:2])}")
    if status == CATALOG_UNKNOWN:
        return CallEntry(label, status, f"{label}: no valid module catalog to look it up in")
    if status == CATALOG_UNLISTED:
        return CallEntry(label, status, f"the module catalog does not list {label}")
    found = catalogs.module_catalog.descriptor(path)
    return CallEntry(label, status, _module_message(found), _module_json(found))


def _said(description: str | None) -> str:
    return f": {description}" if description else ""


def _module_message(module: ModuleDescriptor) -> str:
    mode = f", {module.call_mode.value}" if module.call_mode is not None else ""
    fields = ""
    if module.input_fields:
        names = [f"{field.name}{'' if field.required else '?'}" for field in module.input_fields]
        fields = "; input: " + ", ".join(names)
    return f"host module {module.dotted}{mode}{_said(module.description)}{fields}"


def _module_json(module: ModuleDescriptor) -> dict[str, Any]:
    document = CONVERTER.unstructure(module)
    document["path"] = module.dotted
    return document
