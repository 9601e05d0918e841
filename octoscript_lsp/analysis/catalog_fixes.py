"""Quick fixes for catalog advice, chosen by each finding's code.

- `unlisted-tool`, `unlisted-module-member`, `unknown-input-field`: replace
  the name with each close listed name (did-you-mean, catalogs/suggest.py);
- `tool-format-mismatch`: call the tool through the method of its format;
- `missing-input-field`: insert the missing required fields into the record
  literal with typed placeholders, in the record's one-line or multi-line
  style.
"""

from __future__ import annotations

from collections.abc import Callable

from ..catalogs.model import FieldType, ModuleField
from ..catalogs.store import CatalogStore
from ..catalogs.suggest import closest_names
from ..syntax.formatter import INDENT
from .advice import (
    CODE_MISSING_INPUT,
    CODE_TOOL_FORMAT,
    CODE_UNKNOWN_INPUT,
    CODE_UNLISTED_MEMBER,
    CODE_UNLISTED_TOOL,
    Finding,
    RecordLiteral,
    findings,
)
from .document import DocumentAnalysis
from .quick_fix import Fix

PLACEHOLDERS = {
    FieldType.STRING: '""',
    FieldType.NUMBER: "0",
    FieldType.INTEGER: "0",
    FieldType.BOOLEAN: "false",
    FieldType.OBJECT: "{}",
    FieldType.ARRAY: "[]",
    FieldType.NULL: "nil",
    FieldType.ANY: "nil",
}


def catalog_fixes(
    analysis: DocumentAnalysis, range_start: int, range_end: int, catalogs: CatalogStore | None
) -> list[Fix]:
    if catalogs is None:
        return []
    found: list[Fix] = []
    for finding in findings(analysis, catalogs):
        build = _BUILDERS.get(finding.code)
        if build is None:
            continue
        for fix in build(analysis.source, finding):
            if fix.span[0] <= range_end and range_start <= fix.span[1]:
                found.append(fix)
    return found


def _did_you_mean(finding: Finding, span: tuple[int, int], quote: bool) -> list[Fix]:
    if finding.typed is None:
        return []
    out = []
    for rank, name in enumerate(closest_names(finding.typed, finding.candidates)):
        text = f'"{name}"' if quote else name
        out.append(
            Fix(
                f"Did you mean `{name}`?",
                (finding.start, finding.end),
                (span[0], span[1], text),
                finding,
                preferred=rank == 0,
            )
        )
    return out


def _format_fixes(source: str, finding: Finding) -> list[Fix]:
    """Call the listed tool through the method of its format."""
    if finding.name_span is None or not finding.candidates:
        return []
    method = finding.candidates[0]
    start, end = finding.name_span
    return [Fix(f"Use `tool.{method}`", (start, finding.end), (start, end, method), finding)]


def _fill_fixes(source: str, finding: Finding) -> list[Fix]:
    record = finding.record
    if record is None or not finding.missing:
        return []
    members = [f"{field.name}: {placeholder(field)}" for field in finding.missing]
    edit = (
        _multiline_insert(source, record, members)
        if record.multiline
        else _one_line_insert(record, members)
    )
    title = "Add required input field" + ("s" if len(members) > 1 else "")
    return [Fix(title, (finding.start, record.close_start + 1), edit, finding, preferred=True)]


def placeholder(field: ModuleField) -> str:
    return PLACEHOLDERS[field.type]


def _one_line_insert(record: RecordLiteral, members: list[str]) -> tuple[int, int, str]:
    joined = ", ".join(members)
    if not record.keys:
        # `{}` or `{ }` becomes `{a: ""}`.
        return (record.open_end, record.close_start, joined)
    return (record.last_end, record.last_end, ", " + joined)


def _multiline_insert(
    source: str, record: RecordLiteral, members: list[str]
) -> tuple[int, int, str]:
    newline = "\r\n" if "\r\n" in source[record.open_end : record.close_start + 1] else "\n"
    close_line = source.rfind("\n", 0, record.close_start) + 1
    closing_indent = _leading_space(source, close_line, record.close_start)
    indent = _member_indent(source, record)
    if indent is None:
        indent = (closing_indent or "") + INDENT
    lines = [indent + member for member in members]
    if closing_indent is not None:
        # `}` starts its line: add whole lines just above it.
        return (close_line, close_line, "".join(line + newline for line in lines))
    # `}` ends the last member's line: break before it.
    open_line = source.rfind("\n", 0, record.open_end) + 1
    base = source[open_line : _first_non_space(source, open_line)]
    text = "".join(newline + line for line in lines) + newline + base
    return (record.close_start, record.close_start, text)


def _member_indent(source: str, record: RecordLiteral) -> str | None:
    """The indentation of the first key that starts its own line."""
    for _, start, _ in record.keys:
        line = source.rfind("\n", 0, start) + 1
        indent = _leading_space(source, line, start)
        if indent is not None:
            return indent
    return None


def _leading_space(source: str, line_start: int, offset: int) -> str | None:
    """source[line_start:offset] when it is only spaces and tabs, else None."""
    text = source[line_start:offset]
    return text if text.strip(" \t") == "" else None


def _first_non_space(source: str, offset: int) -> int:
    while offset < len(source) and source[offset] in " \t":
        offset += 1
    return offset


_BUILDERS: dict[str, Callable[[str, Finding], list[Fix]]] = {
    # The finding covers the whole literal (quotes included) or the key.
    CODE_UNLISTED_TOOL: lambda _, found: _did_you_mean(found, (found.start, found.end), True),
    # The finding covers `receiver.method`; only the method name changes.
    CODE_UNLISTED_MEMBER: lambda _, found: (
        _did_you_mean(found, found.name_span, False) if found.name_span else []
    ),
    CODE_TOOL_FORMAT: _format_fixes,
    CODE_UNKNOWN_INPUT: lambda _, found: _did_you_mean(found, (found.start, found.end), False),
    CODE_MISSING_INPUT: _fill_fixes,
}
