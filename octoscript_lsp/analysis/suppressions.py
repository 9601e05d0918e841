"""Suppression comments: which findings `// octoscript: ignore[code, ...]` silences.

One rule for `octoscript check` and the editor alike (`screen`): a comment
silences the listed codes, or code prefixes (bare `ignore`: every finding),
on its own line, or, when the comment is alone on its line, on the next one.
Lines are the checker's LF-only lines, as every finding's line is. A comment
(or a code in it) that silenced nothing is itself a finding,
`unused-suppression`: the CLI reports it with `--report-unused`, the editor
as a faded hint.

Only real `//` comments count (never text inside a string), and a document
without the mark `octoscript:` is not searched at all.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..limits import MAX_ADVISORY_DIAGNOSTICS
from ..syntax.codes import SyntaxCode
from ..syntax.trivia import is_line_comment
from . import advice
from .advice import Finding
from .document import DocumentAnalysis
from .problems import Problem, Severity, syntax_problems

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore

CODE_UNUSED_SUPPRESSION = "unused-suppression"
SUPPRESSION_MARK = "octoscript:"
_SUPPRESSION = re.compile(r"//\s*octoscript:\s*ignore(?:\[([^\]]*)\])?\s*$")
# What the quick fix writes (`ignore_fix`).
_COMMENT = "// octoscript: ignore[{code}]"


# A finding as the screen reads it: where it starts and its code.
Reported = Problem | Finding


def matches(code: str | None, rules: Iterable[str]) -> bool:
    """Whether a code is one of `rules` or starts with one (`unlisted` covers `unlisted-tool`)."""
    return code is not None and any(code.startswith(rule) for rule in rules)


@dataclass(frozen=True, slots=True)
class Suppression:
    """One suppression comment, at code-point offsets [start, end)."""

    line: int  # the 1-based line it silences
    start: int
    end: int
    codes: tuple[str, ...]  # empty: every code
    codes_end: int | None  # just after the last listed code (None: no codes listed)


def marked(analysis: DocumentAnalysis) -> bool:
    """Whether the text may hold a suppression comment (one substring search)."""
    return analysis.syntax is not None and SUPPRESSION_MARK in analysis.source


def suppressions(analysis: DocumentAnalysis) -> list[Suppression]:
    """The suppression comments of a document, in order (none without a syntax pass)."""
    syntax = analysis.syntax
    # Most files have none: one substring search saves reading every comment.
    if syntax is None or not marked(analysis):
        return []
    source = analysis.source
    out = []
    for start, end in syntax.lex.comments:
        match = _SUPPRESSION.match(source, start, end)
        if match is None:
            continue
        listed = match.group(1) or ""
        codes = tuple(code.strip() for code in listed.split(",") if code.strip())
        codes_end = None
        if codes:
            codes_end = match.start(1) + len(listed.rstrip())
        line, _ = syntax.lines.line_column(start)
        line_start = source.rfind("\n", 0, start) + 1
        alone = source[line_start:start].strip(" \t") == ""
        out.append(Suppression(line + 1 if alone else line, start, end, codes, codes_end))
    return out


@dataclass(frozen=True, slots=True)
class Screened:
    """What is left to report, and the comments' unused codes as findings."""

    syntax: list[Problem]
    advice: list[Finding]
    unused: list[Problem]
    # The advice stopped at MAX_ADVISORY_DIAGNOSTICS (counted before any screening).
    advice_cut: bool = False


def screen(
    analysis: DocumentAnalysis, syntax: Sequence[Problem], found: Sequence[Finding]
) -> Screened:
    """Drop the findings the document's comments silence; list what silenced nothing.

    Both lists are screened together because a comment is unused only when
    nothing on its line, syntax problem or catalog advice, matched it.
    """
    comments = suppressions(analysis)
    if not comments:
        return Screened(list(syntax), list(found), [])
    lines = analysis.syntax.lines if analysis.syntax is not None else None
    assert lines is not None
    by_line: dict[int, list[int]] = {}
    for index, comment in enumerate(comments):
        by_line.setdefault(comment.line, []).append(index)
    used: list[set[str]] = [set() for _ in comments]
    length = len(analysis.source)

    def kept(item: Reported) -> bool:
        line, _ = lines.line_column(max(0, min(item.start, length)))
        for index in by_line.get(line, ()):
            code = _silencing_code(comments[index], item.code)
            if code is not None:
                used[index].add(code)
                return False
        return True

    kept_syntax = [item for item in syntax if kept(item)]
    kept_advice = [item for item in found if kept(item)]
    unused = [
        problem
        for comment, codes in zip(comments, used, strict=True)
        for problem in _unused(comment, codes)
    ]
    return Screened(kept_syntax, kept_advice, unused)


def _silencing_code(comment: Suppression, code: str | None) -> str | None:
    """The comment's code that silences `code` ("" for a bare comment), or None."""
    if not comment.codes:
        return ""
    for listed in comment.codes:
        if matches(code, (listed,)):
            return listed
    return None


def _unused(comment: Suppression, used: set[str]) -> list[Problem]:
    def problem(message: str) -> Problem:
        return Problem(
            comment.start, comment.end, Severity.WARNING, message, CODE_UNUSED_SUPPRESSION
        )

    if not comment.codes:
        return [] if used else [problem("this suppression comment silences nothing")]
    return [
        problem(f"`{code}` is suppressed here but nothing on the line reports it")
        for code in comment.codes
        if code not in used
    ]


def reported(
    analysis: DocumentAnalysis,
    catalogs: CatalogStore | None,
    enabled: Callable[[str | None], bool] | None = None,
) -> Screened:
    """A document's findings as `check` reports them: syntax problems and (with
    catalogs) advice, those `enabled` lets through, then screened by its comments."""
    problems = syntax_problems(analysis)
    found = advice.findings(analysis, catalogs) if catalogs is not None else []
    cut = len(found) >= MAX_ADVISORY_DIAGNOSTICS
    if enabled is not None:
        problems = [item for item in problems if enabled(item.code)]
        found = [item for item in found if enabled(item.code)]
    return replace(screen(analysis, problems, found), advice_cut=cut)


# --------------------------------------------------------------------------- the quick fix


@dataclass(frozen=True, slots=True)
class IgnoreFix:
    """ "Ignore `code` on this line" for one shown finding (`about`)."""

    title: str
    edit: tuple[int, int, str]
    about: Reported
    preferred = False  # never the one fix an editor applies unasked (as `fixes.Fix`)


def ignore_fixes(
    analysis: DocumentAnalysis, range_start: int, range_end: int, catalogs: CatalogStore | None
) -> list[IgnoreFix]:
    """One fix per code shown on a line the range meets, in source order."""
    syntax = analysis.syntax
    if syntax is None:
        return []
    screened = reported(analysis, catalogs)
    lines = syntax.lines
    length = len(analysis.source)
    first, _ = lines.line_column(max(0, min(range_start, length)))
    last, _ = lines.line_column(max(0, min(range_end, length)))
    comments = suppressions(analysis)
    out: list[IgnoreFix] = []
    seen: set[tuple[int, str]] = set()
    found: list[Reported] = [*screened.syntax, *screened.advice]
    for item in sorted(found, key=lambda item: item.start):
        line, _ = lines.line_column(max(0, min(item.start, length)))
        if not first <= line <= last or (line, item.code) in seen:
            continue
        seen.add((line, item.code))
        edit = _ignore_edit(analysis, comments, line, item.code)
        if edit is not None:
            out.append(IgnoreFix(f"Ignore `{item.code}` on this line", edit, item))
    return out


def _ignore_edit(
    analysis: DocumentAnalysis, comments: list[Suppression], line: int, code: str
) -> tuple[int, int, str] | None:
    """Extend the line's suppression comment, else end the line with one, else put
    one alone on the line above (the line ends in a comment or inside a token)."""
    for comment in comments:
        if comment.line == line and comment.codes_end is not None:
            return comment.codes_end, comment.codes_end, f", {code}"
    syntax = analysis.syntax
    assert syntax is not None
    source = analysis.source
    start = syntax.lines.line_start(line - 1)
    end = source.find("\n", start)
    end = len(source) if end == -1 else end
    terminator = "\r\n" if end > start and source[end - 1] == "\r" else "\n"
    if terminator == "\r\n":
        end -= 1
    text = _COMMENT.format(code=code)
    if _can_end_line(analysis, line, end):
        content_end = start + len(source[start:end].rstrip(" \t"))
        return content_end, end, ("  " if content_end > start else "") + text
    if not _inside_token_or_comment(analysis, start):
        indent = source[start:end][: len(source[start:end]) - len(source[start:end].lstrip(" \t"))]
        return start, start, indent + text + terminator
    return None


_OPEN_TO_LINE_END = frozenset({SyntaxCode.UNTERMINATED_STRING, SyntaxCode.UNTERMINATED_COMMENT})


def _can_end_line(analysis: DocumentAnalysis, line: int, end: int) -> bool:
    """Whether a `//` comment written at `end` (the line's end) would be one."""
    syntax = analysis.syntax
    assert syntax is not None
    comments = syntax.lex.comments
    index = bisect_right(comments, end, key=lambda span: span[0]) - 1
    if index >= 0:
        comment_start, comment_end = comments[index]
        if comment_end > end or (
            comment_end == end and is_line_comment(analysis.source, comment_start)
        ):
            return False  # inside a block comment, or after a line comment
    for diagnostic in syntax.lex.diagnostics:
        if diagnostic.code not in _OPEN_TO_LINE_END:
            continue
        if syntax.lines.line_column(diagnostic.offset)[0] == line:
            return False  # a string or comment left open runs to the line's end
    return not _inside_token_or_comment(analysis, end)


def _inside_token_or_comment(analysis: DocumentAnalysis, offset: int) -> bool:
    syntax = analysis.syntax
    assert syntax is not None
    tokens = syntax.tokens
    index = bisect_right(tokens, offset, key=lambda token: token.start) - 1
    if index >= 0 and tokens[index].start < offset < tokens[index].end:
        return True
    comments = syntax.lex.comments
    index = bisect_right(comments, offset, key=lambda span: span[0]) - 1
    return index >= 0 and comments[index][0] < offset < comments[index][1]
