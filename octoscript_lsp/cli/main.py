"""Argument parsing and dispatch for the `octoscript` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..catalogs.store import CatalogStore
from ..limits import MAX_CLI_JOBS
from .catalog import all_absent, discarded, load_catalogs, run_catalog_check
from .check import OUTPUT_FORMATS, CheckOptions, run_check
from .formatting import FormatOptions, run_format
from .inputs import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UnreadableInput, expand_paths
from .jobs import default_jobs
from .reports import outline_report, run_reports, tool_calls_report

DESCRIPTION = (
    "Check, format and review Octoscript source. Nothing is evaluated; only the "
    "paths given are read."
)
EPILOG = "exit codes: 0 clean, 1 findings (see each command), 2 usage or unreadable input"
PATHS_HELP = "files or directories (searched for *.octoscript and *.octo); - for stdin"
SETTINGS_HELP = "JSON file holding the settings.octoscript object (tool/module/workflow catalogs)"


def _add_paths(command: argparse.ArgumentParser) -> None:
    command.add_argument("paths", nargs="+", metavar="PATH", help=PATHS_HELP)


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if not 1 <= jobs <= MAX_CLI_JOBS:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {MAX_CLI_JOBS}")
    return jobs


def _add_jobs(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=None,
        metavar="N",
        help="worker processes (default: one per core); output is the same for any N",
    )


def _check_parser(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser(
        "check",
        help="report syntax errors (and catalog advice with --settings)",
        description="Exit 0 clean, 1 when an error (or with --strict a warning) was found, "
        "2 for usage errors or unreadable files.",
    )
    _add_paths(check)
    check.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text")
    check.add_argument("--settings", metavar="FILE", help=SETTINGS_HELP)
    check.add_argument("--strict", action="store_true", help="warnings fail the check too")
    check.add_argument(
        "--stdin-filename", metavar="NAME", help="path to show for `-` (stdin) in reports"
    )
    _add_jobs(check)


def _format_parser(commands: argparse._SubParsersAction) -> None:
    fmt = commands.add_parser(
        "format",
        help="rewrite files in canonical form (- formats stdin to stdout)",
        description="Exit 0 done, 1 when --check/--diff finds a file that would change, "
        "2 for usage errors, unreadable files or invalid source (left untouched).",
    )
    _add_paths(fmt)
    fmt.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file would change"
    )
    fmt.add_argument(
        "--diff", action="store_true", help="write nothing; print a unified diff, exit 1 if any"
    )
    _add_jobs(fmt)


def _catalog_parser(commands: argparse._SubParsersAction) -> None:
    catalog = commands.add_parser("catalog", help="catalog tools for host authors")
    actions = catalog.add_subparsers(dest="catalog_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="what the server would keep from a settings file",
        description="Exit 0 when no projection is discarded, 1 when one is, 2 when the file "
        "cannot be read or is not a JSON object.",
    )
    check.add_argument("file", metavar="FILE", help=SETTINGS_HELP)
    check.add_argument("--output-format", choices=("text", "json"), default="text")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="octoscript", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"octoscript {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _check_parser(commands)
    _format_parser(commands)
    outline = commands.add_parser("outline", help="print top-level declarations as JSON lines")
    _add_paths(outline)
    calls = commands.add_parser(
        "tool-calls", help="print the tool calls a script makes (JSON lines)"
    )
    _add_paths(calls)
    calls.add_argument("--settings", metavar="FILE", help=SETTINGS_HELP)
    _catalog_parser(commands)
    return parser


def _catalogs(path: str | None) -> CatalogStore | None:
    """The settings file's catalogs; discarded projections are announced on stderr."""
    if path is None:
        return None
    store = load_catalogs(path)
    for line in discarded(store):
        sys.stderr.write(f"octoscript: warning: {path}: {line}\n")
    if all_absent(store):
        sys.stderr.write(
            f"octoscript: warning: {path}: no toolCatalog, moduleCatalog or workflow keys "
            "(the file holds the settings.octoscript object itself)\n"
        )
    return store


def _run(args: argparse.Namespace) -> int:
    if args.command == "catalog":
        return run_catalog_check(args.file, args.output_format)
    paths = expand_paths(args.paths)
    jobs = getattr(args, "jobs", None) or default_jobs()
    if args.command == "format":
        return run_format(paths, FormatOptions(args.check, args.diff), jobs)
    if args.command == "outline":
        return run_reports(paths, outline_report)
    catalogs = _catalogs(args.settings)
    if args.command == "tool-calls":
        return run_reports(paths, tool_calls_report(catalogs))
    options = CheckOptions(args.output_format, catalogs, args.stdin_filename)
    status = run_check(paths, options, args.strict, jobs)
    if args.strict and catalogs is not None and discarded(catalogs):
        status = max(status, EXIT_FINDINGS)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:
        return EXIT_USAGE if exit_request.code else EXIT_OK
    try:
        return _run(args)
    except UnreadableInput as error:
        sys.stderr.write(f"octoscript: {error}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_USAGE
