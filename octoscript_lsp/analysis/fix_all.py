"""Fix all: the safe quick fixes applied at once, for `check --fix` and the editor's
`source.fixAll.octoscript` action alike.

The fixes are the editor's own (`fixes.py`); this module only chooses and
applies them. A fix
is applied when it repairs a finding that is reported (`suppressions.reported`:
after the CLI's `--select` / `--ignore` and the suppression comments) and is
safe:

- the syntax rewrites: `var` -> `let`, a single-quoted string -> double
  quotes, a trailing comma removed;
- the preferred did-you-mean of `unlisted-tool`, `unknown-input-field` and
  `unlisted-module-member`, and the method of the listed format for
  `tool-format-mismatch`.

Filling missing input fields (placeholders a person must replace) and adding
imports (no finding reports a missing one) are never applied. A fix can
reveal another (the lexer's findings hide the parser's), so rounds repeat,
at most MAX_FIX_ROUNDS. The result is kept only if it is valid source: a
text that would still have a syntax error is left as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..limits import MAX_FIX_ROUNDS, MAX_SOURCE_BYTES
from .advice import CODE_TOOL_FORMAT, CODE_UNKNOWN_INPUT, CODE_UNLISTED_MEMBER, CODE_UNLISTED_TOOL
from .document import DocumentAnalysis
from .fixes import Fix, fixes
from .suppressions import reported

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore

# Catalog codes whose preferred fix replaces one name by a listed one.
SAFE_CATALOG_CODES = frozenset(
    {CODE_UNLISTED_TOOL, CODE_UNKNOWN_INPUT, CODE_UNLISTED_MEMBER, CODE_TOOL_FORMAT}
)
REFUSED_INVALID = "the fixed text would still not be valid Octoscript"


@dataclass(frozen=True)
class Applied:
    """One applied fix: 1-based line and column in the text it was applied to."""

    line: int
    column: int
    code: str
    title: str


@dataclass
class FixOutcome:
    text: str  # the fixed text, or the original when refused
    applied: list[Applied] = field(default_factory=list)
    refused: str | None = None  # why nothing was kept

    @property
    def changed(self) -> bool:
        return bool(self.applied) and self.refused is None


Enabled = Callable[[str | None], bool]


def repaired(fix: Fix, analysis: DocumentAnalysis) -> tuple[int, str] | None:
    """(offset, code) of the finding `fix` repairs, if it is one fix-all applies."""
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
    text: str, catalogs: CatalogStore | None, enabled: Enabled | None
) -> tuple[str, list[Applied]]:
    """Apply every chosen fix that does not overlap an earlier one, in one pass."""
    analysis = DocumentAnalysis(text)
    if analysis.syntax is None:
        return text, []
    screened = reported(analysis, catalogs, enabled)
    shown = {(item.start, item.code) for item in [*screened.syntax, *screened.advice]}
    lines = analysis.syntax.lines
    chosen: list[tuple[Fix, Applied]] = []
    last_end = -1
    for fix in sorted(fixes(analysis, 0, len(text), catalogs), key=lambda fix: fix.edit[0]):
        about = repaired(fix, analysis)
        if about is None:
            continue
        start, end, _ = fix.edit
        if about not in shown or start < last_end:
            continue
        line, column = lines.line_column(about[0])
        chosen.append((fix, Applied(line, column, about[1], fix.title)))
        last_end = max(end, start + 1)
    for fix, _ in reversed(chosen):
        start, end, replacement = fix.edit
        text = text[:start] + replacement + text[end:]
    return text, [applied for _, applied in chosen]


def fix_all(text: str, catalogs: CatalogStore | None, enabled: Enabled | None = None) -> FixOutcome:
    """The text with every safe fix applied, or the original when that is not valid."""
    current = text
    applied: list[Applied] = []
    for _ in range(MAX_FIX_ROUNDS):
        current, done = _round(current, catalogs, enabled)
        if not done:
            break
        applied.extend(done)
    if not applied:
        return FixOutcome(text)
    if len(current.encode("utf-8")) > MAX_SOURCE_BYTES or not DocumentAnalysis(current).valid:
        return FixOutcome(text, applied, refused=REFUSED_INVALID)
    return FixOutcome(current, applied)
