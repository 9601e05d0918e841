"""`check --fix`: apply the editor's safe quick fixes to the findings a run reports.

The fixes are the server's own (`analysis.fixes`, which takes the catalog
fixes from `analysis.catalog_fixes`); this module only chooses
and applies them. A fix is applied when it repairs a finding the run reports
(after `--select`, `--ignore` and suppression comments) and is safe:

- the syntax rewrites: `var` -> `let`, a single-quoted string -> double
  quotes, a trailing comma removed;
- the preferred did-you-mean of `unlisted-tool`, `unknown-input-field` and
  `unlisted-module-member`, and the method of the listed format for
  `tool-format-mismatch`.

Filling missing input fields (placeholders a person must replace) and adding
imports (no finding reports a missing one) are never applied. A fix can
reveal another (the lexer's findings hide the parser's), so rounds repeat,
at most MAX_FIX_ROUNDS. The result is kept only if it is valid source: a
file that would still have a syntax error is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.advice import (
    CODE_TOOL_FORMAT,
    CODE_UNKNOWN_INPUT,
    CODE_UNLISTED_MEMBER,
    CODE_UNLISTED_TOOL,
)
from ..analysis.document import DocumentAnalysis
from ..analysis.fixes import fixes
from ..analysis.quick_fix import Fix
from ..catalogs.store import CatalogStore
from ..limits import MAX_FIX_ROUNDS, MAX_SOURCE_BYTES
from .findings import FileFindings, findings_of
from .rules import Rules, apply_rules

# Catalog codes whose preferred fix replaces one name by a listed one.
SAFE_CATALOG_CODES = frozenset(
    {CODE_UNLISTED_TOOL, CODE_UNKNOWN_INPUT, CODE_UNLISTED_MEMBER, CODE_TOOL_FORMAT}
)


@dataclass(frozen=True)
class Applied:
    """One applied fix, where it was in the text it was applied to."""

    line: int
    column: int
    code: str
    title: str


@dataclass
class FixOutcome:
    text: str  # the fixed text, or the original when refused
    applied: list[Applied] = field(default_factory=list)
    refused: str | None = None  # why nothing was kept


def _reported(found: FileFindings) -> set[tuple[int, int, str | None]]:
    return {(item.line, item.column, item.code) for item in found.all}


def repaired(fix: Fix, analysis: DocumentAnalysis) -> tuple[int, str] | None:
    """(offset, code) of the finding `fix` repairs, if it is one --fix applies."""
    if fix.about is not None:
        code = fix.about.code
        if code not in SAFE_CATALOG_CODES or not (fix.preferred or code == CODE_TOOL_FORMAT):
            return None
        return fix.about.start, code
    syntax = analysis.syntax
    assert syntax is not None
    start, end = fix.span
    if fix.edit[0] > end or fix.edit[1] < start:
        return None  # an import: inserted elsewhere, and no finding reports it
    for diagnostic in syntax.diagnostics:
        if start <= diagnostic.offset <= end:
            return diagnostic.offset, diagnostic.code.value
    return None


def _round(
    path: str, text: str, catalogs: CatalogStore | None, rules: Rules
) -> tuple[str, list[Applied]]:
    """Apply every chosen fix that does not overlap an earlier one, in one pass."""
    analysis = DocumentAnalysis(text)
    if analysis.syntax is None:
        return text, []
    found = findings_of(path, analysis, catalogs)
    apply_rules(found, analysis, rules)
    reported = _reported(found)
    lines = analysis.syntax.lines
    chosen: list[tuple[Fix, Applied]] = []
    last_end = -1
    for fix in sorted(fixes(analysis, 0, len(text), catalogs), key=lambda fix: fix.edit[0]):
        about = repaired(fix, analysis)
        if about is None:
            continue
        line, column = lines.line_column(about[0])
        start, end, _ = fix.edit
        if (line, column, about[1]) not in reported or start < last_end:
            continue
        chosen.append((fix, Applied(line, column, about[1], fix.title)))
        last_end = max(end, start + 1)
    for fix, _ in reversed(chosen):
        start, end, replacement = fix.edit
        text = text[:start] + replacement + text[end:]
    return text, [applied for _, applied in chosen]


def fix_text(path: str, text: str, catalogs: CatalogStore | None, rules: Rules) -> FixOutcome:
    """The text with every safe fix applied, or the original when that is not valid."""
    current = text
    applied: list[Applied] = []
    for _ in range(MAX_FIX_ROUNDS):
        current, done = _round(path, current, catalogs, rules)
        if not done:
            break
        applied.extend(done)
    if not applied:
        return FixOutcome(text)
    if len(current.encode("utf-8")) > MAX_SOURCE_BYTES or not DocumentAnalysis(current).valid:
        reason = "the fixed text would still not be valid Octoscript"
        return FixOutcome(text, applied, refused=reason)
    return FixOutcome(current, applied)
