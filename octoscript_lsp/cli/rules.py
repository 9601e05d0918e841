"""Which findings a run reports: `--select` / `--ignore` and suppression comments.

A rule is a diagnostic code or the start of one (`unlisted` covers
`unlisted-tool` and `unlisted-module-member`). A comment
`// octoscript: ignore[code, ...]` silences those codes (bare `ignore`:
every finding) on its own line, or, when the comment is alone on its line,
on the next one. With `--report-unused`, a suppression that silenced
nothing is itself reported (`unused-suppression`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..analysis import advice, problems
from ..analysis.document import DocumentAnalysis
from ..catalogs.suggest import closest_names
from ..syntax.codes import SyntaxCode
from .findings import FileFindings, Finding

CODE_UNUSED_SUPPRESSION = "unused-suppression"
# Every code a finding can carry (docs/diagnostics.md), for checking rule names.
KNOWN_CODES: tuple[str, ...] = (
    *(code.value for code in SyntaxCode),
    problems.CODE_SOURCE_TOO_LARGE,
    problems.CODE_TOO_MANY_DIAGNOSTICS,
    advice.CODE_UNLISTED_TOOL,
    advice.CODE_TOOL_FORMAT,
    advice.CODE_UNLISTED_MEMBER,
    advice.CODE_MISSING_INPUT,
    advice.CODE_UNKNOWN_INPUT,
    CODE_UNUSED_SUPPRESSION,
)
SUPPRESSION_MARK = "octoscript:"
_SUPPRESSION = re.compile(r"//\s*octoscript:\s*ignore(?:\[([^\]]*)\])?\s*$")


class UnknownRule(ValueError):
    """A rule that is no code and no code's start; the message suggests one."""


def check_rules(rules: Iterable[str], option: str) -> tuple[str, ...]:
    """The rules as given, each checked against the known codes."""
    out = []
    for rule in rules:
        rule = rule.strip()
        if not any(code.startswith(rule) for code in KNOWN_CODES) or not rule:
            near = closest_names(rule, KNOWN_CODES)
            hint = f"; did you mean `{near[0]}`?" if near else ""
            raise UnknownRule(f"{option}: `{rule}` is not a diagnostic code{hint}")
        out.append(rule)
    return tuple(out)


def _matches(code: str | None, rules: Iterable[str]) -> bool:
    return code is not None and any(code.startswith(rule) for rule in rules)


@dataclass(frozen=True)
class Rules:
    select: tuple[str, ...] = ()  # empty: every code
    ignore: tuple[str, ...] = ()
    report_unused: bool = False

    def enabled(self, code: str | None) -> bool:
        if self.select and code is not None and not _matches(code, self.select):
            return False
        return not _matches(code, self.ignore)


@dataclass
class Suppression:
    line: int  # the line it silences
    start: tuple[int, int]  # the comment's own line and column
    end: tuple[int, int]
    codes: tuple[str, ...]  # empty: every code
    used: set[str] = field(default_factory=set)  # codes (or "" for bare) that silenced one

    def silences(self, finding: Finding) -> bool:
        if finding.line != self.line:
            return False
        if not self.codes:
            self.used.add("")
            return True
        for code in self.codes:
            if _matches(finding.code, (code,)):
                self.used.add(code)
                return True
        return False

    def unused(self) -> list[Finding]:
        (line, column), (end_line, end_column) = self.start, self.end
        if not self.codes:
            if self.used:
                return []
            message = "this suppression comment silences nothing"
            return [
                Finding(
                    line, column, end_line, end_column, "warning", message, CODE_UNUSED_SUPPRESSION
                )
            ]
        return [
            Finding(
                line,
                column,
                end_line,
                end_column,
                "warning",
                f"`{code}` is suppressed here but nothing on the line reports it",
                CODE_UNUSED_SUPPRESSION,
            )
            for code in self.codes
            if code not in self.used
        ]


def suppressions(analysis: DocumentAnalysis) -> list[Suppression]:
    """The suppression comments of a document, in order (none without a syntax pass)."""
    syntax = analysis.syntax
    # Most files have none: one substring search saves reading every comment.
    if syntax is None or SUPPRESSION_MARK not in analysis.source:
        return []
    source = analysis.source
    out = []
    for start, end in syntax.lex.comments:
        match = _SUPPRESSION.match(source, start, end)
        if match is None:
            continue
        codes = tuple(code.strip() for code in (match.group(1) or "").split(",") if code.strip())
        line, column = syntax.lines.line_column(start)
        end_line, end_column = syntax.lines.line_column(end)
        line_start = source.rfind("\n", 0, start) + 1
        alone = source[line_start:start].strip(" \t") == ""
        out.append(
            Suppression(line + 1 if alone else line, (line, column), (end_line, end_column), codes)
        )
    return out


def apply_rules(found: FileFindings, analysis: DocumentAnalysis | None, rules: Rules) -> None:
    """Drop what the rules and the document's suppression comments silence (in place)."""
    comments = suppressions(analysis) if analysis is not None else []
    if not comments and not rules.select and not rules.ignore:
        return  # nothing can be silenced, and nothing can be unused
    by_line: dict[int, list[Suppression]] = {}
    for comment in comments:
        by_line.setdefault(comment.line, []).append(comment)

    def kept(finding: Finding) -> bool:
        if not rules.enabled(finding.code):
            return False
        return not any(comment.silences(finding) for comment in by_line.get(finding.line, ()))

    found.errors = [item for item in found.errors if kept(item)]
    found.advice = [item for item in found.advice if kept(item)]
    if rules.report_unused and rules.enabled(CODE_UNUSED_SUPPRESSION):
        unused = [item for comment in comments for item in comment.unused()]
        found.advice = sorted([*found.advice, *unused], key=lambda item: (item.line, item.column))
