"""`check --output-format sarif`: one SARIF 2.1.0 log for code-scanning uploads.

One run, one result per finding. Columns count Unicode code points
(`columnKind`), as every CLI report does; paths are given as relative URIs
(against the directory `check` ran in) unless they were given absolute.
Files that could not be read are tool execution notifications, and make
the invocation unsuccessful.
"""

from __future__ import annotations

import os
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from .. import __version__
from .findings import ReportedFinding

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def _uri(path: str) -> str:
    if os.path.isabs(path):
        return PurePath(path).as_uri()
    return quote(PurePath(path).as_posix())


def _result(path: str, finding: ReportedFinding, rule_index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "level": _LEVELS.get(finding.severity, "note"),
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(path)},
                    "region": {
                        "startLine": finding.line,
                        "startColumn": finding.column,
                        "endLine": finding.end_line,
                        "endColumn": finding.end_column,
                    },
                }
            }
        ],
    }
    if finding.code is not None:
        result["ruleId"] = finding.code
        result["ruleIndex"] = rule_index[finding.code]
    return result


def sarif_log(
    files: list[tuple[str, list[ReportedFinding]]], unreadable: list[str], successful: bool
) -> dict[str, Any]:
    """The whole log: `files` are (path, findings) in report order."""
    codes = sorted({item.code for _, found in files for item in found if item.code})
    rule_index = {code: index for index, code in enumerate(codes)}
    rules = [{"id": code, "shortDescription": {"text": f"octoscript {code}"}} for code in codes]
    results = [_result(path, item, rule_index) for path, found in files for item in found]
    invocation: dict[str, Any] = {"executionSuccessful": successful}
    if unreadable:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": message}} for message in unreadable
        ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "octoscript",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "invocations": [invocation],
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
