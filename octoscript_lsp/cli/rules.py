"""Which findings a run reports: `--select` / `--ignore`.

A rule is a diagnostic code or the start of one (`unlisted` covers
`unlisted-tool` and `unlisted-module-member`). Suppression comments are the
analysis layer's (`analysis.suppressions`, the editor's rule too); with
`--report-unused`, a suppression that silenced nothing is itself reported
(`unused-suppression`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..analysis import advice, problems
from ..analysis.suppressions import CODE_UNUSED_SUPPRESSION, matches
from ..catalogs.suggest import closest_names
from ..syntax.codes import SyntaxCode

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


@dataclass(frozen=True)
class Rules:
    select: tuple[str, ...] = ()  # empty: every code
    ignore: tuple[str, ...] = ()
    report_unused: bool = False

    def enabled(self, code: str | None) -> bool:
        if self.select and code is not None and not matches(code, self.select):
            return False
        return not matches(code, self.ignore)

    def reports_unused(self) -> bool:
        return self.report_unused and self.enabled(CODE_UNUSED_SUPPRESSION)


# No `--select`, no `--ignore`: what the editor reports too.
EVERY_CODE = Rules()
