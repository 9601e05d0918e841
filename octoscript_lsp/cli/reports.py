"""JSON-lines reports: `outline` and `tool-calls` (one object per file)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from ..catalogs.store import CatalogStore
from ..features.review_json import tool_calls_json
from ..syntax.check import SyntaxResult, analyze_syntax, byte_offsets, outline
from .findings import syntax_findings
from .inputs import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UnreadableInput, read_source

Report = Callable[[str, SyntaxResult], dict[str, Any]]


def check_report(path: str, result: SyntaxResult) -> dict[str, Any]:
    return {
        "path": path,
        "valid": result.valid,
        "diagnostics": [item.json() for item in syntax_findings(result)],
        "diagnostics_truncated": result.diagnostics_truncated,
    }


def outline_report(path: str, result: SyntaxResult) -> dict[str, Any]:
    to_byte = byte_offsets(result.source)
    declarations = [
        {
            "kind": item.kind,
            "name": item.name,
            "declaration": [to_byte(item.start), to_byte(item.end)],
            "selection": [to_byte(item.selection_start), to_byte(item.selection_end)],
        }
        for item in outline(result)
    ]
    report = check_report(path, result)
    report["declarations"] = declarations
    return report


def tool_calls_report(catalogs: CatalogStore | None) -> Report:
    """`tool-calls` objects; each call's `catalog` status comes from `catalogs`."""

    def build(path: str, result: SyntaxResult) -> dict[str, Any]:
        report = check_report(path, result)
        report.update(tool_calls_json(result, catalogs))
        return report

    return build


def run_reports(paths: list[str], build: Report) -> int:
    status = EXIT_OK
    for path in paths:
        try:
            result = analyze_syntax(read_source(path).text)
        except UnreadableInput as error:
            sys.stderr.write(f"octoscript: {error}\n")
            status = EXIT_USAGE
            continue
        sys.stdout.write(json.dumps(build(path, result), ensure_ascii=False) + "\n")
        if not result.valid and status == EXIT_OK:
            status = EXIT_FINDINGS
    return status
