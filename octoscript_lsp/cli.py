"""`octoscript` command-line tool: check, format, outline, tool-calls.

Every command reads files (or `-` for stdin) and prints JSON lines or
canonical source; nothing is evaluated. Exit codes: 0 all valid, 1 any
invalid or unformatted, 2 usage error or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from .limits import MAX_SOURCE_BYTES
from .syntax.check import SourceTooLarge, SyntaxResult, analyze_syntax, byte_offsets
from .syntax.formatter import FormattedSourceTooLarge, format_tokens
from .syntax.outline import top_level_declarations

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class UnreadableInput(Exception):
    pass


def read_source(path: str) -> str:
    """Read at most the source budget (plus one byte to detect excess) as UTF-8."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_SOURCE_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as error:
        raise UnreadableInput(f"cannot read {path}: {error.strerror or error}") from error
    if len(data) > MAX_SOURCE_BYTES:
        raise UnreadableInput(f"cannot read {path}: input exceeds {MAX_SOURCE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableInput(f"cannot read {path}: input is not valid UTF-8") from error


def diagnostics_json(result: SyntaxResult) -> list[dict]:
    out = []
    for diagnostic in result.diagnostics:
        line, column = result.line_column(diagnostic.offset)
        out.append({"line": line, "column": column, "message": diagnostic.message})
    return out


def check_report(path: str, result: SyntaxResult) -> dict:
    return {
        "path": path,
        "valid": result.valid,
        "diagnostics": diagnostics_json(result),
        "diagnostics_truncated": result.diagnostics_truncated,
    }


def outline_report(path: str, result: SyntaxResult) -> dict:
    to_byte = byte_offsets(result.source)
    declarations = []
    if result.valid:
        for item in top_level_declarations(result.tokens):
            declarations.append(
                {
                    "kind": item.kind,
                    "name": item.name,
                    "declaration": [to_byte(item.start), to_byte(item.end)],
                    "selection": [to_byte(item.selection_start), to_byte(item.selection_end)],
                }
            )
    report = check_report(path, result)
    report["declarations"] = declarations
    return report


def tool_calls_report(path: str, result: SyntaxResult) -> dict:
    # Imported lazily: the review layer sits above syntax.
    from .analysis.hints import tool_calls_json

    report = check_report(path, result)
    report.update(tool_calls_json(result))
    return report


def _print_json(value: dict) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")


def _run_reports(paths: Sequence[str], build: Callable[[str, SyntaxResult], dict]) -> int:
    status = EXIT_OK
    for path in paths:
        try:
            result = analyze_syntax(read_source(path))
        except (UnreadableInput, SourceTooLarge) as error:
            sys.stderr.write(f"octoscript: {error}\n")
            status = EXIT_USAGE
            continue
        _print_json(build(path, result))
        if not result.valid and status == EXIT_OK:
            status = EXIT_INVALID
    return status


def _print_diagnostics(path: str, result: SyntaxResult) -> None:
    for item in diagnostics_json(result):
        sys.stderr.write(f"{path}:{item['line']}:{item['column']}: {item['message']}\n")
    if result.diagnostics_truncated:
        sys.stderr.write(f"{path}: further diagnostics omitted\n")


def _formatted(path: str) -> tuple[str, str] | int:
    try:
        source = read_source(path)
        result = analyze_syntax(source)
    except (UnreadableInput, SourceTooLarge) as error:
        sys.stderr.write(f"octoscript: {error}\n")
        return EXIT_USAGE
    if not result.valid:
        _print_diagnostics(path, result)
        return EXIT_INVALID
    try:
        from .limits import MAX_SYNTAX_TOKENS

        return source, format_tokens(source, result.tokens, MAX_SYNTAX_TOKENS)
    except FormattedSourceTooLarge:
        sys.stderr.write(f"octoscript: {path}: formatted output exceeds the output budget\n")
        return EXIT_INVALID


def run_format(paths: Sequence[str], check: bool) -> int:
    if not check and len(paths) != 1:
        sys.stderr.write("octoscript: format takes exactly one FILE (or use --check)\n")
        return EXIT_USAGE
    status = EXIT_OK
    for path in paths:
        outcome = _formatted(path)
        if isinstance(outcome, int):
            status = max(status, outcome)
            continue
        source, formatted = outcome
        if check:
            if formatted != source:
                sys.stderr.write(f"{path}: would be reformatted\n")
                status = max(status, EXIT_INVALID)
        else:
            sys.stdout.write(formatted)
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="octoscript", description="Check, format and outline Octoscript source."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="report syntax diagnostics as JSON lines")
    check.add_argument("files", nargs="+", metavar="FILE")
    fmt = commands.add_parser("format", help="print canonical source")
    fmt.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    fmt.add_argument("files", nargs="+", metavar="FILE")
    outline = commands.add_parser("outline", help="print top-level declarations as JSON")
    outline.add_argument("files", nargs="+", metavar="FILE")
    calls = commands.add_parser("tool-calls", help="print the tool calls a script makes")
    calls.add_argument("files", nargs="+", metavar="FILE")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:
        return EXIT_USAGE if exit_request.code else EXIT_OK
    if args.command == "check":
        return _run_reports(args.files, check_report)
    if args.command == "outline":
        return _run_reports(args.files, outline_report)
    if args.command == "tool-calls":
        return _run_reports(args.files, tool_calls_report)
    return run_format(args.files, args.check)


if __name__ == "__main__":
    sys.exit(main())
