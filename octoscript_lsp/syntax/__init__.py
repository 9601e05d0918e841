"""Syntax layer: lexer, parser, tree, formatter and outline (pure functions)."""

from .check import SourceTooLarge, SyntaxResult, analyze_syntax, check_source, format_source

__all__ = ["SourceTooLarge", "SyntaxResult", "analyze_syntax", "check_source", "format_source"]
