"""`octoscript check`: syntax errors and catalog advice as text, JSON or GitHub annotations.

Each file is checked on its own (`check_file`, possibly in a worker process,
see jobs.py) into a `CheckedFile` holding exactly what is printed for it;
the parent prints them in the order of the files and adds up the tally.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..catalogs.store import CatalogStore
from .findings import FileFindings, Finding, check_source
from .inputs import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    SourceFile,
    UnreadableInput,
    read_input,
    read_stdin,
)
from .jobs import map_in_order

OUTPUT_FORMATS = ("text", "json", "github")


@dataclass(frozen=True)
class CheckOptions:
    output_format: str = "text"
    catalogs: CatalogStore | None = None
    stdin_filename: str | None = None
    # `-` is read by the parent before any worker starts (workers have no stdin).
    stdin: SourceFile | UnreadableInput | None = None


@dataclass
class CheckedFile:
    """One file's outcome, as printed: small enough to send back from a worker."""

    stdout: str = ""
    stderr: str = ""
    findings: list[Finding] = field(default_factory=list)
    valid: bool = True
    unreadable: bool = False


@dataclass
class Tally:
    files: int = 0
    errors: int = 0
    warnings: int = 0
    invalid_files: int = 0
    unreadable: int = 0

    def add(self, checked: CheckedFile) -> None:
        if checked.unreadable:
            self.unreadable += 1
            return
        self.files += 1
        self.errors += sum(1 for item in checked.findings if item.severity == "error")
        self.warnings += sum(1 for item in checked.findings if item.severity != "error")
        self.invalid_files += 0 if checked.valid else 1

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


def _lines(found: FileFindings, line: Callable[[str, Finding], str]) -> str:
    return "".join(line(found.path, item) for item in [*found.errors, *found.advice])


def render(found: FileFindings, output_format: str, with_advice: bool) -> str:
    if output_format == "json":
        return json.dumps(found.report_json(with_advice), ensure_ascii=False) + "\n"
    if output_format == "github":
        return _lines(found, _github_line)
    return _lines(found, _text_line)


def check_file(options: CheckOptions, path: str) -> CheckedFile:
    """Read and check one file; everything printed for it is in the result."""
    try:
        source = read_input(path, options.stdin)
    except UnreadableInput as error:
        return CheckedFile(stderr=f"octoscript: {error}\n", unreadable=True)
    shown = options.stdin_filename if path == STDIN and options.stdin_filename else path
    found = check_source(shown, source.text, options.catalogs)
    return CheckedFile(
        stdout=render(found, options.output_format, options.catalogs is not None),
        findings=[*found.errors, *found.advice],
        valid=found.valid,
    )


def run_check(paths: list[str], options: CheckOptions, strict: bool, jobs: int = 1) -> int:
    if STDIN in paths:
        options = replace(options, stdin=read_stdin())
    tally = Tally()
    for checked in map_in_order(check_file, options, paths, jobs):
        sys.stderr.write(checked.stderr)
        sys.stdout.write(checked.stdout)
        tally.add(checked)
    if options.output_format == "text":
        sys.stdout.write(tally.summary() + "\n")
    return tally.exit_code(strict)
