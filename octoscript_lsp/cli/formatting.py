"""`octoscript format`: rewrite files in place, or check / diff, or stdin to stdout.

Exit codes: 0 nothing to do (or everything written), 1 with `--check` /
`--diff` when a file would change, 2 for usage errors, unreadable files,
invalid source (reported and left untouched), files that cannot be written
and files that changed on disk while being formatted.
"""

from __future__ import annotations

import difflib
import sys

from ..features.review_json import diagnostics_json
from ..limits import MAX_SYNTAX_TOKENS
from ..syntax.check import analyze_syntax
from ..syntax.formatter import FormattedSourceTooLarge, format_tokens
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


class NotFormattable(Exception):
    """Invalid source or an over-budget result; the message says which."""


def canonical_text(source: SourceFile) -> str:
    result = analyze_syntax(source.text)
    if not result.valid:
        lines = [
            f"{source.path}:{item['line']}:{item['column']}: error: {item['message']}"
            for item in diagnostics_json(result)
        ]
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


def _diff(source: SourceFile, formatted: str) -> str:
    return "".join(
        difflib.unified_diff(
            source.text.splitlines(keepends=True),
            formatted.splitlines(keepends=True),
            fromfile=f"{source.path} (original)",
            tofile=f"{source.path} (formatted)",
        )
    )


def _format_one(path: str, check: bool, diff: bool) -> int:
    source = read_source(path)
    formatted = canonical_text(source)
    if path == STDIN and not (check or diff):
        sys.stdout.write(formatted)
        return EXIT_OK
    if formatted == source.text:
        return EXIT_OK
    if diff:
        sys.stdout.write(_diff(source, formatted))
    if check and not diff:
        sys.stderr.write(f"would reformat {path}\n")
    if check or diff:
        return EXIT_FINDINGS
    write_atomically(source, formatted)
    sys.stderr.write(f"reformatted {path}\n")
    return EXIT_OK


def run_format(paths: list[str], check: bool, diff: bool) -> int:
    if STDIN in paths and len(paths) > 1:
        sys.stderr.write("octoscript: format reads `-` (stdin) only on its own\n")
        return EXIT_USAGE
    status = EXIT_OK
    for path in paths:
        try:
            outcome = _format_one(path, check, diff)
        except NotFormattable as error:
            sys.stderr.write(f"{error}\n")
            outcome = EXIT_USAGE
        except (UnreadableInput, UnwritableOutput, ChangedOnDisk) as error:
            sys.stderr.write(f"octoscript: {error}\n")
            outcome = EXIT_USAGE
        status = max(status, outcome)
    return status
