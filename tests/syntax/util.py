"""Helpers shared by the syntax tests."""

from __future__ import annotations

from octoscript_lsp.syntax.check import SyntaxResult, analyze_syntax


def positions(source: str) -> list[tuple[int, int]]:
    """1-based (line, column) of every reported diagnostic, in report order."""
    result = analyze_syntax(source)
    return [result.line_column(item.offset) for item in result.diagnostics]


def first(source: str) -> tuple[int, int] | None:
    found = positions(source)
    return found[0] if found else None


def summary(source: str) -> tuple[tuple[int, int] | None, int]:
    """(first diagnostic position, diagnostic count)."""
    found = positions(source)
    return (found[0] if found else None, len(found))


def messages(source: str) -> list[str]:
    return [item.message for item in analyze_syntax(source).diagnostics]


def check(source: str) -> SyntaxResult:
    return analyze_syntax(source)
