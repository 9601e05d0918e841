"""Catalog advice: what the host's catalog does not list, as plain data.

Advice is a hint (Warning or Information), never an error, and appears only
while the relevant catalog is valid: an absent or discarded catalog says
nothing about what exists. `features/advisory` shows it as LSP diagnostics,
`cli/findings` as findings.

Each piece is a `Finding` in code-point offsets that also keeps what a quick
fix needs (the listed names to suggest from, the record literal to fill), so
catalog quick fixes (`fixes._BUILDERS`) are chosen by the finding's code,
never its message.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalogs.model import ModuleCatalog, ModuleDescriptor, ModuleField, ToolFormat
from ..catalogs.store import CatalogState, CatalogStore
from ..catalogs.suggest import closest_names
from ..catalogs.tools import is_valid_tool_name
from ..limits import MAX_ADVISORY_DIAGNOSTICS
from ..syntax.tokens import Kind, Token, first_token_from
from .document import DocumentAnalysis
from .problems import Severity
from .record_scan import record_entries
from .surfaces import is_fixed_core_path, tool_method
from .tool_call_review import ImportedModuleCallHint, catalog_status, expected_format

CODE_UNLISTED_TOOL = "unlisted-tool"
CODE_TOOL_FORMAT = "tool-format-mismatch"
CODE_UNLISTED_MEMBER = "unlisted-module-member"
CODE_MISSING_INPUT = "missing-input-field"
CODE_UNKNOWN_INPUT = "unknown-input-field"


@dataclass(frozen=True, slots=True)
class RecordLiteral:
    """A `{...}` first argument: its root keys and where new fields may go."""

    keys: tuple[tuple[str, int, int], ...]
    open_end: int  # just after `{`
    close_start: int  # the `}`
    last_end: int  # end of the last token before `}` (the `{` when empty)
    multiline: bool


@dataclass(frozen=True, slots=True)
class Finding:
    """One piece of catalog advice; `typed` and `candidates` feed did-you-mean."""

    code: str
    start: int
    end: int
    message: str
    severity: Severity = Severity.WARNING
    typed: str | None = None
    candidates: tuple[str, ...] = ()
    # Where a replacing name goes when that is not the finding's own range.
    name_span: tuple[int, int] | None = None
    record: RecordLiteral | None = None
    missing: tuple[ModuleField, ...] = ()


def findings(analysis: DocumentAnalysis, catalogs: CatalogStore) -> list[Finding]:
    if analysis.syntax is None or not analysis.valid:
        return []
    found: list[Finding] = []
    found.extend(_tool_name_findings(analysis, catalogs))
    found.extend(_module_findings(analysis, catalogs))
    return found[:MAX_ADVISORY_DIAGNOSTICS]


def _tool_name(value: str | None) -> str:
    """The literal, quoted, when it is a valid catalog tool name; never other text.

    Like `tool-calls`, a message echoes only what could be a catalog name.
    """
    return f"`{value}`" if value is not None and is_valid_tool_name(value) else "this tool"


def _suggestion(typed: str | None, candidates: tuple[str, ...]) -> str:
    """`; did you mean `x`?` with the closest listed name (the preferred quick fix)."""
    if not typed:
        return ""
    closest = closest_names(typed, candidates)
    return f"; did you mean `{closest[0]}`?" if closest else ""


def _tool_name_findings(analysis: DocumentAnalysis, catalogs: CatalogStore) -> list[Finding]:
    catalog = catalogs.tool_catalog
    if catalogs.tools.state is not CatalogState.VALID or catalog is None:
        return []
    out = []
    listed: dict[str, tuple[str, ...]] = {}  # format -> its tool names, made once
    for hint in analysis.hints.tool_calls:
        if hint.literal_start is None or hint.literal_end is None or not hint.literal_value:
            continue  # dynamic, undecodable, or still being typed (`""`)
        status = catalog_status(hint, catalogs)
        expected = expected_format(hint.kind)
        if status == "unlisted":
            if expected not in listed:
                tools = catalog.by_format(ToolFormat(expected))
                listed[expected] = tuple(tool.name for tool in tools)
            names = listed[expected]
            out.append(
                Finding(
                    CODE_UNLISTED_TOOL,
                    hint.literal_start,
                    hint.literal_end,
                    "the tool catalog does not list "
                    + _tool_name(hint.literal_value)
                    + _suggestion(hint.literal_value, names),
                    typed=hint.literal_value,
                    candidates=names,
                )
            )
        elif status == "format-mismatch":
            out.append(
                Finding(
                    CODE_TOOL_FORMAT,
                    hint.literal_start,
                    hint.literal_end,
                    f"{_tool_name(hint.literal_value)} is not listed with the {expected} "
                    f"format that tool.{hint.kind} uses; did you mean "
                    f"`tool.{tool_method(hint.kind).counterpart}`?",
                    typed=hint.kind,
                    candidates=(tool_method(hint.kind).counterpart,),
                    name_span=(hint.callee_end - len(hint.kind), hint.callee_end),
                )
            )
    return out


def _module_findings(analysis: DocumentAnalysis, catalogs: CatalogStore) -> list[Finding]:
    catalog = catalogs.module_catalog
    if catalogs.modules.state is not CatalogState.VALID or catalog is None:
        return []
    out = []
    tokens = analysis.syntax.tokens if analysis.syntax else []
    for hint in analysis.hints.imported_module_calls:
        if not catalog.knows(hint.module_path) or is_fixed_core_path(hint.module_path):
            continue
        path = (*hint.module_path, hint.method)
        descriptor = catalog.descriptor(path)
        if descriptor is None:
            if catalog.is_leaf(hint.module_path):
                continue  # calling into a leaf: nothing to list beneath it
            members = _listed_members(catalog, hint.module_path)
            out.append(
                Finding(
                    CODE_UNLISTED_MEMBER,
                    hint.callee_start,
                    hint.callee_end,
                    f"the module catalog does not list {'.'.join(path)}"
                    + _suggestion(hint.method, members),
                    Severity.INFORMATION,
                    typed=hint.method,
                    candidates=members,
                    name_span=(hint.callee_end - len(hint.method), hint.callee_end),
                )
            )
            continue
        if descriptor.is_shaped:
            out.extend(_input_findings(tokens, hint, descriptor))
    return out


def _listed_members(catalog: ModuleCatalog, module_path: tuple[str, ...]) -> tuple[str, ...]:
    """Children with a descriptor of their own: the members a call can name."""
    return tuple(
        child.name
        for child in catalog.children(module_path)
        if catalog.descriptor((*module_path, child.name)) is not None
    )


def _input_findings(
    tokens: list[Token], hint: ImportedModuleCallHint, descriptor: ModuleDescriptor
) -> list[Finding]:
    record = literal_record(tokens, hint.callee_end)
    if record is None:
        return []
    out = []
    fields = descriptor.input_fields or ()
    known = {field.name for field in fields}
    present = {name for name, _, _ in record.keys}
    unused = tuple(sorted(known - present))
    for name, start, end in record.keys:
        if name not in known:
            out.append(
                Finding(
                    CODE_UNKNOWN_INPUT,
                    start,
                    end,
                    f"`{name}` is not an input field of this call" + _suggestion(name, unused),
                    typed=name,
                    candidates=unused,
                )
            )
    missing = tuple(f for f in fields if f.required and f.name not in present)
    if missing:
        out.append(
            Finding(
                CODE_MISSING_INPUT,
                hint.callee_start,
                hint.callee_end,
                "missing required input field"
                + ("s " if len(missing) > 1 else " ")
                + ", ".join(f"`{f.name}`" for f in missing),
                record=record,
                missing=missing,
            )
        )
    return out


def literal_record(tokens: list[Token], callee_end: int) -> RecordLiteral | None:
    """The record literal of `callee({k: v, ...})` when it is the first argument."""
    index = first_token_from(tokens, callee_end)
    if index + 1 >= len(tokens):
        return None
    if tokens[index].kind is not Kind.LPAREN or tokens[index + 1].kind is not Kind.LBRACE:
        return None
    read = record_entries(tokens, index + 1)
    if read is None:
        return None
    keys = tuple(
        (token.text, token.start, token.end)
        for entry in read.entries
        if not entry.is_empty and (token := tokens[entry.first]).kind is Kind.IDENT
    )
    multiline = any(tokens[entry.end].kind is Kind.NEWLINE for entry in read.entries)
    last = read.closing - 1
    while tokens[last].kind is Kind.NEWLINE:
        last -= 1
    return RecordLiteral(
        keys, tokens[index + 1].end, tokens[read.closing].start, tokens[last].end, multiline
    )
