"""`octoscript check`: syntax errors and catalog advice as text, JSON or GitHub annotations."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass

from ..catalogs.store import CatalogStore
from .findings import FileFindings, Finding, check_source
from .inputs import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, STDIN, UnreadableInput, read_source

OUTPUT_FORMATS = ("text", "json", "github")


@dataclass
class Tally:
    files: int = 0
    errors: int = 0
    warnings: int = 0
    invalid_files: int = 0
    unreadable: int = 0

    def add(self, found: FileFindings) -> None:
        self.files += 1
        self.errors += sum(1 for item in found.errors if item.severity == "error")
        self.warnings += sum(1 for item in found.errors if item.severity != "error")
        self.warnings += len(found.advice)
        self.invalid_files += 0 if found.valid else 1

    def exit_code(self, strict: bool) -> int:
        if self.unreadable:
            return EXIT_USAGE
        if self.invalid_files or (strict and self.warnings):
            return EXIT_FINDINGS
        return EXIT_OK

    def summary(self) -> str:
        files = "1 file" if self.files == 1 else f"{self.files} files"
        errors = "1 error" if self.errors == 1 else f"{self.errors} errors"
        warnings = "1 warning" if self.warnings == 1 else f"{self.warnings} warnings"
        tail = f", {self.unreadable} unreadable" if self.unreadable else ""
        return f"checked {files}: {errors}, {warnings}{tail}"


def _text_line(path: str, item: Finding) -> str:
    code = f" [{item.code}]" if item.code else ""
    return f"{path}:{item.line}:{item.column}: {item.severity}: {item.message}{code}\n"


def _github_escape(text: str, property_value: bool = False) -> str:
    """Workflow-command escaping: a message cannot break out of its annotation."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _github_line(path: str, item: Finding) -> str:
    command = {"error": "error", "warning": "warning"}.get(item.severity, "notice")
    properties = ",".join(
        [
            f"file={_github_escape(path, True)}",
            f"line={item.line}",
            f"col={item.column}",
            f"endLine={item.end_line}",
            f"endColumn={item.end_column}",
            f"title={_github_escape(f'octoscript {item.code or item.severity}', True)}",
        ]
    )
    return f"::{command} {properties}::{_github_escape(item.message)}\n"


def _print_findings(found: FileFindings, line: Callable[[str, Finding], str]) -> None:
    for item in [*found.errors, *found.advice]:
        sys.stdout.write(line(found.path, item))


def _print(found: FileFindings, output_format: str, with_advice: bool) -> None:
    if output_format == "json":
        sys.stdout.write(json.dumps(found.report_json(with_advice), ensure_ascii=False) + "\n")
    elif output_format == "github":
        _print_findings(found, _github_line)
    else:
        _print_findings(found, _text_line)


def run_check(
    paths: list[str],
    output_format: str,
    catalogs: CatalogStore | None,
    strict: bool,
    stdin_filename: str | None,
) -> int:
    tally = Tally()
    for path in paths:
        try:
            source = read_source(path)
        except UnreadableInput as error:
            sys.stderr.write(f"octoscript: {error}\n")
            tally.unreadable += 1
            continue
        shown = stdin_filename if path == STDIN and stdin_filename else path
        found = check_source(shown, source.text, catalogs)
        tally.add(found)
        _print(found, output_format, catalogs is not None)
    if output_format == "text":
        sys.stdout.write(tally.summary() + "\n")
    return tally.exit_code(strict)
