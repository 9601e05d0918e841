"""`octoscript check`: syntax errors and catalog advice as text, JSON or GitHub annotations.

Each file is checked on its own (`check_file`) into a `CheckedFile` holding
exactly what is printed for it; consecutive files are folded into a batch
and its `Tally` (`check_batch`, possibly in a worker process, see jobs.py),
and the parent prints the batches in the order of the files and adds up
their tallies.
"""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..analysis.document import DocumentAnalysis
from ..analysis.fix_all import fix_all
from ..catalogs.store import CatalogStore
from .catalog import project_catalogs
from .findings import FileFindings, ReportedFinding, findings_of, text_line, too_large
from .formatting import unified_diff
from .inputs import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    ChangedOnDisk,
    OversizedInput,
    SourceFile,
    UnreadableInput,
    UnwritableOutput,
    read_input,
    read_stdin,
    write_atomically,
)
from .jobs import fold, run_batches
from .project import ProjectConfig
from .rules import Rules, check_rules
from .sarif import sarif_log

OUTPUT_FORMATS = ("text", "json", "github", "sarif")


@dataclass(frozen=True)
class Profile:
    """What one project configuration (with the flags over it) asks of its files."""

    catalogs: CatalogStore | None = None
    rules: Rules = Rules()
    strict: bool = False


def config_profile(
    config: ProjectConfig | None,
    catalogs: CatalogStore | None,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    report_unused: bool = False,
    strict: bool | None = None,
) -> Profile:
    """A configuration's catalogs (unless `catalogs` is given), rules and strictness,
    with the command line's flags over them (`select` None: the configuration's)."""
    values = config.values if config is not None else {}
    chosen = select if select is not None else values.get("select", [])
    origin = f"{config.path}: " if config is not None else ""
    rules = Rules(
        select=check_rules(chosen, f"{origin}select"),
        ignore=check_rules([*values.get("ignore", []), *ignore], f"{origin}ignore"),
        report_unused=report_unused,
    )
    if catalogs is None and config is not None:
        catalogs = project_catalogs(config)
    strict = strict if strict is not None else bool(values.get("strict", False))
    return Profile(catalogs, rules, strict)


@dataclass(frozen=True)
class CheckOptions:
    output_format: str = "text"
    stdin_filename: str | None = None
    # Profiles by configuration file (None: no configuration); see `check_file`.
    profiles: dict[str | None, Profile] = field(default_factory=lambda: {None: Profile()})
    exit_zero: bool = False
    statistics: bool = False
    quiet: bool = False
    fix: bool = False
    diff: bool = False
    # `-` is read by the parent before any worker starts (workers have no stdin).
    stdin: SourceFile | UnreadableInput | None = None


@dataclass
class CheckedFile:
    """One file's outcome, as printed: small enough to send back from a worker."""

    path: str = ""
    stdout: str = ""
    stderr: str = ""
    findings: list[ReportedFinding] = field(default_factory=list)
    unreadable: bool = False
    fails: bool = False  # an error, or with --strict a warning, is left
    fixed: int = 0
    diffed: bool = False
    sarif: bool = False  # its findings go into the run's one SARIF log


@dataclass
class Tally:
    files: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    failed_files: int = 0  # files with an error (or a --strict warning) left
    fixed: int = 0
    diffed: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    # With `--output-format sarif`: each readable file's findings, in order.
    reported: list[tuple[str, list[ReportedFinding]]] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # their messages, in order

    def add(self, checked: CheckedFile) -> None:
        if checked.unreadable:
            self.unreadable.append(checked.stderr.strip())
            return
        if checked.sarif:
            self.reported.append((checked.path, checked.findings))
        self.files += 1
        self.failed_files += 1 if checked.fails else 0
        self.fixed += checked.fixed
        self.diffed += 1 if checked.diffed else 0
        if not checked.findings:
            return
        severities = Counter(item.severity for item in checked.findings)
        self.errors += severities["error"]
        self.warnings += severities["warning"]
        self.infos += severities["info"] + severities["hint"]
        self.by_code.update(item.code or "(no code)" for item in checked.findings)

    def exit_code(self, options: CheckOptions) -> int:
        """Errors fail; warnings fail with --strict; info never does."""
        if self.unreadable:
            return EXIT_USAGE
        if options.exit_zero:
            return EXIT_OK
        if options.diff:
            return EXIT_FINDINGS if self.diffed else EXIT_OK
        return EXIT_FINDINGS if self.failed_files else EXIT_OK

    def summary(self) -> str:
        parts = [_count(self.errors, "error"), _count(self.warnings, "warning")]
        if self.infos:
            parts.append(f"{self.infos} info")
        if self.unreadable:
            parts.append(f"{len(self.unreadable)} unreadable")
        if self.fixed:
            parts.append(f"{self.fixed} fixed")
        return f"checked {_count(self.files, 'file')}: " + ", ".join(parts)

    def statistics(self) -> str:
        """One line per code, most frequent first: `count  code`."""
        rows = sorted(self.by_code.items(), key=lambda row: (-row[1], row[0]))
        width = max((len(str(count)) for _, count in rows), default=1)
        return "".join(f"{count:>{width}}  {code}\n" for code, count in rows)


def _count(number: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("x") else "s")
    return f"1 {noun}" if number == 1 else f"{number} {plural}"


def _github_escape(text: str, property_value: bool = False) -> str:
    """Workflow-command escaping: a message cannot break out of its annotation."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _github_line(path: str, item: ReportedFinding) -> str:
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


def _lines(found: FileFindings, line: Callable[[str, ReportedFinding], str]) -> str:
    return "".join(line(found.path, item) for item in [*found.errors, *found.advice])


def render(found: FileFindings, output_format: str, with_advice: bool) -> str:
    if output_format == "sarif":
        return ""  # one log for the whole run, printed at the end
    if output_format == "json":
        return json.dumps(found.report_json(with_advice), ensure_ascii=False) + "\n"
    if output_format == "github":
        return _lines(found, _github_line)
    return _lines(found, text_line)


def _fix(
    source: SourceFile, shown: str, profile: Profile, options: CheckOptions
) -> tuple[str, str, str, int]:
    """(text to check, stdout, stderr, fixes applied) after --fix (and --diff)."""
    outcome = fix_all(source.text, profile.catalogs, profile.rules.enabled)
    said = "".join(
        f"{'would fix' if options.diff else 'fixed'} {shown}:{item.line}:{item.column}: "
        f"{item.title} [{item.code}]\n"
        for item in outcome.applied
    )
    if outcome.refused is not None:
        count = _count(len(outcome.applied), "fix")
        return source.text, "", f"octoscript: {shown}: {count} not applied: {outcome.refused}\n", 0
    if not outcome.applied:
        return source.text, "", "", 0
    if options.diff:
        return source.text, unified_diff(source, outcome.text, "fixed"), said, 0
    write_atomically(source, outcome.text)
    return outcome.text, "", said, len(outcome.applied)


def check_file(options: CheckOptions, item: tuple[str, str | None]) -> CheckedFile:
    """Read, (fix,) and check one file; everything printed for it is in the result."""
    path, config = item
    profile = options.profiles[config]
    shown = options.stdin_filename if path == STDIN and options.stdin_filename else path
    stdout = stderr = ""
    fixed = 0
    try:
        source = read_input(path, options.stdin)
        text = source.text
        if options.fix and path != STDIN:
            text, stdout, stderr, fixed = _fix(source, shown, profile, options)
    except OversizedInput as error:
        found = too_large(shown, error.size)
    except (UnreadableInput, UnwritableOutput, ChangedOnDisk) as error:
        return CheckedFile(shown, stderr=f"octoscript: {error}\n", unreadable=True)
    else:
        analysis = DocumentAnalysis(text)
        found = findings_of(shown, analysis, profile.catalogs, profile.rules)
    listed = not options.diff and not (options.statistics and options.output_format == "text")
    if listed:
        stdout += render(found, options.output_format, profile.catalogs is not None)
    severities = {finding.severity for finding in found.all}
    return CheckedFile(
        shown,
        stdout=stdout,
        stderr=stderr,
        findings=found.all,
        fails="error" in severities or (profile.strict and "warning" in severities),
        fixed=fixed,
        diffed=options.diff and bool(stdout),
        sarif=options.output_format == "sarif",
    )


# `check_file` for each of consecutive files, into one `Tally`.
check_batch = functools.partial(fold, check_file, Tally)


def run_check(targets: list[tuple[str, str | None]], options: CheckOptions, jobs: int = 1) -> int:
    """Check `targets` (path, configuration file) and print every report in order."""
    if any(path == STDIN for path, _ in targets):
        options = replace(options, stdin=read_stdin())
    tally = run_batches(check_batch, options, targets, jobs, Tally())
    status = tally.exit_code(options)
    if options.output_format == "sarif":
        log = sarif_log(tally.reported, tally.unreadable, successful=not tally.unreadable)
        sys.stdout.write(json.dumps(log, ensure_ascii=False, indent=2) + "\n")
    elif options.output_format == "text":
        if options.statistics:
            sys.stdout.write(tally.statistics())
        if not options.quiet and not options.diff:
            sys.stdout.write(tally.summary() + "\n")
    return status
