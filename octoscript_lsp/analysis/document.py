"""Per-version document analysis: parsed once, derived views computed lazily."""

from __future__ import annotations

from functools import cached_property

from ..syntax.check import SourceTooLarge, SyntaxResult, analyze_syntax


class DocumentAnalysis:
    """Everything the features read about one version of one document.

    Built once per (uri, version); every request reads it. Views that only
    some requests need are `cached_property`s so they cost nothing until used.
    """

    def __init__(self, source: str, version: int | None = None) -> None:
        self.source = source
        self.version = version
        self.too_large: SourceTooLarge | None = None
        self.syntax: SyntaxResult | None = None
        try:
            self.syntax = analyze_syntax(source)
        except SourceTooLarge as error:
            self.too_large = error

    @property
    def valid(self) -> bool:
        return self.syntax is not None and self.syntax.valid

    @cached_property
    def diagnostic_prefix_end(self) -> int:
        """Offset of the earliest reported diagnostic (the whole text if valid)."""
        syntax = self.syntax
        if syntax is None:
            return 0
        if syntax.valid:
            return len(self.source)
        if not syntax.diagnostics:
            return 0
        return min(diagnostic.offset for diagnostic in syntax.diagnostics)

    @cached_property
    def metadata_prefix_end(self) -> int:
        """Like `diagnostic_prefix_end`, but also before the parser's first error.

        When lexical errors are reported the parser's own complaints are not,
        yet it may have stumbled earlier; source metadata stops at either.
        """
        first = self.diagnostic_prefix_end
        syntax = self.syntax
        if syntax is None or syntax.valid or first == 0:
            return first
        parser_first = syntax.parsed.first_diagnostic_offset
        return first if parser_first is None else min(first, parser_first)
