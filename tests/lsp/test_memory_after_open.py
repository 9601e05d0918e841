"""Memory around the first analysis: the collector."""

from __future__ import annotations

import gc
import weakref

from octoscript_lsp.limits import MAX_SOURCE_BYTES
from octoscript_lsp.server import OctoscriptServer


def quiet_server(monkeypatch) -> OctoscriptServer:
    """A server object that publishes to nobody and has no advice to give."""
    ls = OctoscriptServer()
    monkeypatch.setattr(ls, "_send_diagnostics", lambda uri, version, found: None)
    monkeypatch.setattr(ls, "catalogs_can_advise", lambda: False)
    return ls


def test_an_opened_documents_objects_are_kept_out_of_the_collector(monkeypatch):
    """Its first analysis's tokens and nodes are frozen once its diagnostics
    are out; a typed version's are left to the collector."""
    ls = quiet_server(monkeypatch)
    uri = "file:///opened.octoscript"
    ls.texts.open(uri, 1, "let total = 1\n" * 400)
    frozen = gc.get_freeze_count()
    try:
        ls.publish(uri, 1, ls.documents.track(uri, 1), settled=True)
        opened = gc.get_freeze_count() - frozen
        tokens = ls.cached(uri).analysis.syntax.tokens
        ls.texts.open(uri, 2, "let total = 2\n" * 400)
        ls.publish(uri, 2, ls.documents.track(uri, 2))
        typed = gc.get_freeze_count() - frozen - opened
        before_settings = gc.get_freeze_count()
        ls.republish_all()  # a settings change: settled, but nothing new was made
        republished = gc.get_freeze_count() - before_settings
    finally:
        gc.unfreeze()
    assert opened >= len(tokens) >= 400 * 5
    assert typed <= 0  # nothing frozen; version 1's unshared objects were freed
    assert republished == 0


class _Cycle:
    """Garbage only the collector frees (it refers to itself)."""

    def __init__(self) -> None:
        self.me = self


def test_garbage_waiting_for_the_collector_is_not_frozen_with_an_opened_document(monkeypatch):
    """A refused request's traceback, say, left before an open: frozen, it
    would never be freed (a few KiB lost per open, for the process's life)."""
    ls = quiet_server(monkeypatch)
    uri = "file:///opened.octoscript"
    garbage = _Cycle()
    collected = weakref.ref(garbage)
    del garbage
    ls.texts.open(uri, 1, "let total = 1\n" * 400)
    try:
        ls.publish(uri, 1, ls.documents.track(uri, 1), settled=True)
        left = collected()
    finally:
        gc.unfreeze()
    assert left is None


def test_an_opened_document_past_the_source_budget_is_freed_when_closed(monkeypatch):
    """Its analysis keeps the refusal, not the frames it was raised through
    (they hold the analysis and the text): frozen in a cycle, the whole
    document would outlive its close."""
    ls = quiet_server(monkeypatch)
    uri = "file:///too-large.octoscript"
    ls.texts.open(uri, 1, "let total = 1\n" * (MAX_SOURCE_BYTES // 10))
    try:
        ls.publish(uri, 1, ls.documents.track(uri, 1), settled=True)
        analysis = ls.cached(uri).analysis
        assert analysis.too_large is not None
        collected = weakref.ref(analysis)
        del analysis
        ls.documents.close(uri)
        ls.texts.close(uri)
        left = collected()
    finally:
        gc.unfreeze()
    assert left is None
