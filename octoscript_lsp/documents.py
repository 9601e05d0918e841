"""Open documents: their latest version, its cached analysis, and the bounds
on how many are analysed and kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .analysis.document import DocumentAnalysis
from .features import symbols
from .features.positions import UTF16, PositionEncoding, PositionMap
from .features.semantic_delta import LastTokens
from .limits import MAX_CACHED_ANALYSES, MAX_OPEN_DOCUMENTS


@dataclass(slots=True)
class OpenDocument:
    """The cached analysis of the latest version of one open document."""

    version: int | None
    analysis: DocumentAnalysis | None = None
    positions: PositionMap | None = None
    refused: bool = False  # over the open-document budget: no analysis at all
    # The analysis of the version before, kept until this one is built so the
    # unchanged leading part of the text need not be lexed and parsed again.
    previous: DocumentAnalysis | None = None
    # Whether the last diagnostics published (or pulled) for this document held advice.
    advised: bool = False
    # This version's catalog advice under the current catalogs, once worked out.
    advice: list | None = None
    # This version's part of the workspace outline, once asked for.
    workspace_outline: list | None = None
    # The last semantic-tokens answer sent for this document (any version):
    # what a delta request edits.
    semantic_tokens: LastTokens | None = None


class DocumentStore:
    """Open documents by URI; at most MAX_OPEN_DOCUMENTS get analysis.

    The text itself lives in `text_sync.TextStore` (which applies the
    edits); `text_of` reads it. One analysis per version is built on first use, and
    only the MAX_CACHED_ANALYSES most recently used stay built. Each
    version's `PositionMap` counts columns in `encoding`, the session's
    negotiated position encoding.
    """

    def __init__(
        self, text_of: Callable[[str], str | None], encoding: PositionEncoding = UTF16
    ) -> None:
        self.text_of = text_of
        self.encoding = encoding
        self.open: dict[str, OpenDocument] = {}
        self.recent: dict[str, None] = {}

    def track(self, uri: str, version: int | None) -> OpenDocument:
        known = self.open.get(uri)
        if known is None and len(self.open) >= MAX_OPEN_DOCUMENTS:
            return OpenDocument(version, refused=True)
        previous = known.analysis or known.previous if known is not None else None
        # What earlier versions computed reaches the new one through
        # `previous`: its statements (`syntax/statements.py`).
        state = OpenDocument(version, previous=previous, advised=bool(known and known.advised))
        if known is not None:
            state.semantic_tokens = known.semantic_tokens
        self.open[uri] = state
        return state

    def close(self, uri: str) -> None:
        self.open.pop(uri, None)
        self.recent.pop(uri, None)

    def cached(self, uri: str) -> OpenDocument | None:
        state = self.open.get(uri)
        if state is None or state.refused:
            return None
        if state.analysis is None:
            source = self.text_of(uri)
            if source is None:
                return None
            analysis = DocumentAnalysis(source, state.version, state.previous)
            syntax = analysis.syntax
            state.analysis = analysis
            lf_starts = syntax.lines.line_starts if syntax else None
            state.positions = PositionMap(source, lf_starts, self.encoding)
            state.previous = None
        self._keep_recent(uri)
        return state

    def _keep_recent(self, uri: str) -> None:
        recent = self.recent
        recent.pop(uri, None)
        recent[uri] = None
        while len(recent) > MAX_CACHED_ANALYSES:
            oldest = next(iter(recent))
            del recent[oldest]
            state = self.open.get(oldest)
            if state is not None:
                # What it would hand on goes with it (bounded memory).
                state.analysis = state.positions = state.previous = None
                state.semantic_tokens = None

    def outline(self, uri: str) -> list:
        """This document's entries for workspace/symbol, kept per version."""
        state = self.open.get(uri)
        if state is None or state.refused:
            return []
        if state.workspace_outline is None:
            cached = self.cached(uri)
            if cached is None:
                return []
            state.workspace_outline = symbols.outline_entries(cached.analysis, cached.positions)
        return state.workspace_outline
