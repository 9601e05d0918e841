"""Argument parsing and dispatch for the `octoscript` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .. import __version__
from ..limits import MAX_CLI_JOBS
from .catalog import announced_catalogs, discarded, run_catalog_check
from .check import OUTPUT_FORMATS, CheckOptions, config_profile, run_check
from .discovery import Discovery, Selection
from .formatting import FormatOptions, run_format
from .inputs import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, STDIN, UnreadableInput
from .jobs import WorkerFailed, default_jobs
from .project import ConfigError, ConfigFinder, ProjectConfig, named_config
from .reports import outline_report, run_reports, tool_calls_report
from .rules import UnknownRule

DESCRIPTION = (
    "Check, format and review Octoscript source. Nothing is evaluated; only the "
    "paths given (and the project configuration and catalogs they name) are read."
)
EPILOG = "exit codes: 0 clean, 1 findings (see each command), 2 usage or unreadable input"
PATHS_HELP = "files or directories (searched for *.octoscript and *.octo; default: .); - for stdin"
SETTINGS_HELP = "JSON file holding the settings.octoscript object (tool/module/workflow catalogs)"
RULES_HELP = "comma-separated diagnostic codes or code prefixes"
MCP_EXTRA = "octoscript-lsp[mcp]"
# The MCP front end, imported only by `octoscript mcp`: its SDK is an extra,
# which the other commands must not need.
MCP_WORKSPACE = "octoscript_lsp.mcp.workspace"
MCP_SERVER = "octoscript_lsp.mcp.server"


class UsageError(Exception):
    """Arguments that parse but do not go together; the message says why."""


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if not 1 <= jobs <= MAX_CLI_JOBS:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {MAX_CLI_JOBS}")
    return jobs


def _codes(value: str) -> list[str]:
    return [code.strip() for code in value.split(",") if code.strip()]


def _add_paths(command: argparse.ArgumentParser, default: bool = False) -> None:
    if default:
        command.add_argument("paths", nargs="*", default=["."], metavar="PATH", help=PATHS_HELP)
    else:
        command.add_argument("paths", nargs="+", metavar="PATH", help=PATHS_HELP)


def _add_project(command: argparse.ArgumentParser) -> None:
    """Configuration, discovery and `--jobs`: shared by `check` and `format`."""
    group = command.add_argument_group("project")
    group.add_argument(
        "--config", metavar="FILE", help="use this pyproject.toml or octoscript.toml for every path"
    )
    group.add_argument(
        "--isolated", action="store_true", help="read no configuration file (flags only)"
    )
    group.add_argument(
        "--exclude", type=_codes, metavar="GLOBS", help="comma-separated globs replacing `exclude`"
    )
    group.add_argument(
        "--extend-exclude",
        type=_codes,
        action="extend",
        default=[],
        metavar="GLOBS",
        help="comma-separated globs added to `exclude`",
    )
    group.add_argument(
        "--force-exclude",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="apply the excludes to paths named on the command line too",
    )
    group.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="skip what .gitignore and .ignore files ignore (default: yes)",
    )
    group.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=None,
        metavar="N",
        help="worker processes (default: one per core); output is the same for any N",
    )
    command.add_argument(
        "--quiet", "-q", action="store_true", help="print findings only, no summary"
    )
    command.add_argument(
        "--stdin-filename", metavar="NAME", help="path to show for `-` (stdin) in reports"
    )


def _check_parser(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser(
        "check",
        help="report syntax errors (and catalog advice with catalogs)",
        description="Exit 0 clean, 1 when an error (or with --strict a warning) was found, "
        "2 for usage errors or unreadable files.",
    )
    check.set_defaults(command_parser=check)
    _add_paths(check, default=True)
    check.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text")
    check.add_argument("--settings", metavar="FILE", help=SETTINGS_HELP)
    check.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="warnings fail the check too",
    )
    rules = check.add_argument_group("rules")
    rules.add_argument("--select", type=_codes, metavar="CODES", help=RULES_HELP + " to report")
    rules.add_argument(
        "--ignore",
        type=_codes,
        action="extend",
        default=[],
        metavar="CODES",
        help=RULES_HELP + " not to report",
    )
    rules.add_argument(
        "--report-unused",
        action="store_true",
        help="report suppression comments that suppress nothing",
    )
    rules.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    rules.add_argument(
        "--statistics", action="store_true", help="print counts per code instead of findings"
    )
    rules.add_argument("--fix", action="store_true", help="apply the safe quick fixes")
    rules.add_argument(
        "--diff", action="store_true", help="with --fix: print the fixes as a diff, write nothing"
    )
    _add_project(check)


def _format_parser(commands: argparse._SubParsersAction) -> None:
    fmt = commands.add_parser(
        "format",
        help="rewrite files in canonical form (- formats stdin to stdout)",
        description="Exit 0 done, 1 when --check/--diff finds a file that would change, "
        "2 for usage errors, unreadable files or invalid source (left untouched).",
    )
    fmt.set_defaults(command_parser=fmt)
    _add_paths(fmt, default=True)
    fmt.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file would change"
    )
    fmt.add_argument(
        "--diff", action="store_true", help="write nothing; print a unified diff, exit 1 if any"
    )
    _add_project(fmt)


def _catalog_parser(commands: argparse._SubParsersAction) -> None:
    catalog = commands.add_parser("catalog", help="catalog tools for host authors")
    actions = catalog.add_subparsers(dest="catalog_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="what the server would keep from a settings file",
        description="Exit 0 when no projection is discarded, 1 when one is, 2 when the file "
        "cannot be read or is not a JSON object.",
    )
    catalog.set_defaults(command_parser=catalog)
    check.set_defaults(command_parser=check)
    check.add_argument("file", metavar="FILE", help=SETTINGS_HELP)
    check.add_argument("--output-format", choices=("text", "json"), default="text")


def _mcp_parser(commands: argparse._SubParsersAction) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve the checker and catalog search to a model (MCP over stdio)",
        description="A Model Context Protocol server on stdin/stdout (needs the "
        f"{MCP_EXTRA} extra). Catalogs come from --settings, else the project "
        "configuration. Exit 2 for usage errors, an unreadable configuration or a "
        "missing MCP SDK.",
    )
    mcp.set_defaults(command_parser=mcp)
    mcp.add_argument("--settings", metavar="FILE", help=SETTINGS_HELP)
    mcp.add_argument("--config", metavar="FILE", help="use this pyproject.toml or octoscript.toml")
    mcp.add_argument(
        "--isolated", action="store_true", help="read no configuration file (--settings only)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="octoscript", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"octoscript {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _check_parser(commands)
    _format_parser(commands)
    outline = commands.add_parser("outline", help="print top-level declarations as JSON lines")
    outline.set_defaults(command_parser=outline)
    _add_paths(outline)
    calls = commands.add_parser(
        "tool-calls", help="print the tool calls a script makes (JSON lines)"
    )
    calls.set_defaults(command_parser=calls)
    _add_paths(calls)
    calls.add_argument("--settings", metavar="FILE", help=SETTINGS_HELP)
    _catalog_parser(commands)
    _mcp_parser(commands)
    return parser


def _discovery(args: argparse.Namespace) -> Discovery:
    if args.config and args.isolated:
        raise UsageError("--config and --isolated do not go together")
    fixed = named_config(args.config) if args.config else None
    finder = None if args.config or args.isolated else ConfigFinder()
    selection = Selection(
        exclude=tuple(args.exclude) if args.exclude is not None else None,
        extend_exclude=tuple(args.extend_exclude),
        force_exclude=args.force_exclude,
        respect_gitignore=args.respect_gitignore,
    )
    return Discovery(finder, fixed, selection, _warn)


def _run_check(args: argparse.Namespace) -> int:
    if args.diff and not args.fix:
        raise UsageError("--diff goes with --fix (format --diff shows formatting)")
    if args.fix and STDIN in args.paths:
        raise UsageError("--fix rewrites files; it does not read `-` (stdin)")
    targets = _discovery(args).targets(args.paths, args.stdin_filename)
    cli_catalogs = announced_catalogs(args.settings)
    configs: dict[str | None, ProjectConfig | None] = {None: None}
    configs.update((t.config.path, t.config) for t in targets if t.config is not None)
    profiles = {
        key: config_profile(
            config, cli_catalogs, args.select, args.ignore, args.report_unused, args.strict
        )
        for key, config in configs.items()
    }
    options = CheckOptions(
        output_format=args.output_format,
        stdin_filename=args.stdin_filename,
        profiles=profiles,
        exit_zero=args.exit_zero,
        statistics=args.statistics,
        quiet=args.quiet,
        fix=args.fix,
        diff=args.diff,
    )
    keyed = [(t.path, t.config.path if t.config is not None else None) for t in targets]
    status = run_check(keyed, options, args.jobs or default_jobs())
    for profile in profiles.values():
        if profile.strict and profile.catalogs is not None and discarded(profile.catalogs):
            status = max(status, EXIT_FINDINGS)
    return status


def _run_mcp(args: argparse.Namespace) -> int:
    if args.config and args.isolated:
        raise UsageError("--config and --isolated do not go together")
    workspace = importlib.import_module(MCP_WORKSPACE)
    origin = workspace.Origin(args.settings, args.config, args.isolated)
    try:
        serve = importlib.import_module(MCP_SERVER).serve
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "mcp":
            raise
        sys.stderr.write(
            "octoscript: `octoscript mcp` needs the MCP SDK, which is not installed; "
            f"install the extra: pip install '{MCP_EXTRA}' (in a checkout: pip install '.[mcp]')\n"
        )
        return EXIT_USAGE
    return serve(origin)


def _run(args: argparse.Namespace) -> int:
    if args.command == "mcp":
        return _run_mcp(args)
    if args.command == "catalog":
        return run_catalog_check(args.file, args.output_format)
    if args.command == "check":
        return _run_check(args)
    if args.command == "format":
        targets = _discovery(args).targets(args.paths, args.stdin_filename)
        options = FormatOptions(args.check, args.diff, args.quiet, args.stdin_filename)
        return run_format([t.path for t in targets], options, args.jobs or default_jobs())
    paths = [t.path for t in Discovery(None, None, Selection(), _warn).targets(args.paths)]
    if args.command == "outline":
        return run_reports(paths, outline_report)
    return run_reports(paths, tool_calls_report(announced_catalogs(args.settings)))


def _warn(line: str) -> None:
    sys.stderr.write(f"octoscript: {line}\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # The command's own usage, not the top-level one.
            args.command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exit_request:
        return EXIT_USAGE if exit_request.code else EXIT_OK
    try:
        return _run(args)
    except (UnreadableInput, ConfigError, UnknownRule, UsageError) as error:
        sys.stderr.write(f"octoscript: {error}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_USAGE
    except WorkerFailed as error:
        # Not a finding: a worker was killed (out of memory, a signal) or
        # crashed; what it reported is kept for a bug report.
        sys.stderr.write(f"octoscript: a worker process failed: {error}\n")
        return EXIT_USAGE
