"""`octoscript format`: rewrite files in place, or check / diff, or stdin to stdout.

Exit codes: 0 nothing to do (or everything written), 1 with `--check` /
`--diff` when a file would change, 2 for usage errors, unreadable files,
invalid source (reported and left untouched), files that cannot be written
and files that changed on disk while being formatted.
"""

from __future__ import annotations

import difflib
import functools
import sys
from dataclasses import dataclass, replace

from ..limits import MAX_SYNTAX_TOKENS
from ..syntax.check import analyze_syntax
from ..syntax.formatter import FormattedSourceTooLarge, format_tokens
from .findings import syntax_findings, text_line
from .inputs import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    ChangedOnDisk,
    SourceFile,
    UnreadableInput,
    UnwritableOutput,
    read_source,
    write_atomically,
)
from .jobs import fold, run_batches


class NotFormattable(Exception):
    """Invalid source or an over-budget result; the message says which."""


def canonical_text(source: SourceFile) -> str:
    result = analyze_syntax(source.text)
    if not result.valid:
        lines = [text_line(source.path, item).rstrip("\n") for item in syntax_findings(result)]
        if result.diagnostics_truncated:
            lines.append(f"{source.path}: further diagnostics omitted")
        lines.append(f"{source.path}: invalid source left unformatted")
        raise NotFormattable("\n".join(lines))
    try:
        return format_tokens(source.text, result.tokens, MAX_SYNTAX_TOKENS)
    except FormattedSourceTooLarge as error:
        raise NotFormattable(
            f"{source.path}: formatted output exceeds the output budget; left unformatted"
        ) from error


def unified_diff(source: SourceFile, changed: str, label: str = "formatted") -> str:
    return "".join(
        difflib.unified_diff(
            source.text.splitlines(keepends=True),
            changed.splitlines(keepends=True),
            fromfile=f"{source.path} (original)",
            tofile=f"{source.path} ({label})",
        )
    )


@dataclass(frozen=True)
class FormatOptions:
    check: bool = False
    diff: bool = False
    quiet: bool = False
    stdin_filename: str | None = None


@dataclass(frozen=True)
class FormattedFile:
    """One file's outcome, as printed: small enough to send back from a worker."""

    outcome: str  # "changed", "unchanged" or "failed"
    stdout: str = ""
    stderr: str = ""


@dataclass
class FormatTally:
    changed: int = 0
    unchanged: int = 0
    failed: int = 0

    def add(self, formatted: FormattedFile) -> None:
        setattr(self, formatted.outcome, getattr(self, formatted.outcome) + 1)

    def exit_code(self, options: FormatOptions) -> int:
        if self.failed:
            return EXIT_USAGE
        return EXIT_FINDINGS if self.changed and (options.check or options.diff) else EXIT_OK

    def summary(self, options: FormatOptions) -> str:
        dry = options.check or options.diff
        parts = [
            f"{_files(self.changed)} {'would be reformatted' if dry else 'reformatted'}",
            f"{_files(self.unchanged)} {'already formatted' if dry else 'left unchanged'}",
        ]
        if self.failed:
            parts.append(f"{_files(self.failed)} could not be formatted")
        return ", ".join(parts)


def _files(count: int) -> str:
    return "1 file" if count == 1 else f"{count} files"


def _format_source(source: SourceFile, stdin: bool, options: FormatOptions) -> FormattedFile:
    formatted = canonical_text(source)
    if stdin and not (options.check or options.diff):
        return FormattedFile("unchanged", stdout=formatted)
    if formatted == source.text:
        return FormattedFile("unchanged")
    if options.diff:
        return FormattedFile("changed", stdout=unified_diff(source, formatted))
    if options.check:
        return FormattedFile("changed", stderr=f"would reformat {source.path}\n")
    write_atomically(source, formatted)
    said = "" if options.quiet else f"reformatted {source.path}\n"
    return FormattedFile("changed", stderr=said)


def format_file(options: FormatOptions, path: str) -> FormattedFile:
    """Format one file; everything printed for it is in the result."""
    try:
        source = read_source(path)
        if path == STDIN and options.stdin_filename:
            source = replace(source, path=options.stdin_filename)
        return _format_source(source, path == STDIN, options)
    except NotFormattable as error:
        return FormattedFile("failed", stderr=f"{error}\n")
    except (UnreadableInput, UnwritableOutput, ChangedOnDisk) as error:
        return FormattedFile("failed", stderr=f"octoscript: {error}\n")


# `format_file` for each of consecutive files, into one `FormatTally`.
format_batch = functools.partial(fold, format_file, FormatTally)


def run_format(paths: list[str], options: FormatOptions, jobs: int = 1) -> int:
    if STDIN in paths and len(paths) > 1:
        sys.stderr.write("octoscript: format reads `-` (stdin) only on its own\n")
        return EXIT_USAGE
    tally = run_batches(format_batch, options, paths, jobs, FormatTally())
    if paths != [STDIN] and not options.quiet:
        sys.stderr.write(tally.summary(options) + "\n")
    return tally.exit_code(options)
