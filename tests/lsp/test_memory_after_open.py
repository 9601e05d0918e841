"""Memory around the first analysis: an opened document is freed when closed."""

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


def test_an_opened_document_past_the_source_budget_is_freed_when_closed(monkeypatch):
    """Its analysis keeps the refusal, not the frames it was raised through
    (they hold the analysis and the text): frozen in a cycle, the whole
    document would outlive its close."""
    ls = quiet_server(monkeypatch)
    uri = "file:///too-large.octoscript"
    ls.texts.open(uri, 1, "let total = 1\n" * (MAX_SOURCE_BYTES // 10))
    try:
        ls.publish(uri, 1, ls.documents.track(uri, 1), settled=True)
        analysis = ls.documents.cached(uri).analysis
        assert analysis.too_large is not None
        collected = weakref.ref(analysis)
        del analysis
        ls.documents.close(uri)
        ls.texts.close(uri)
        left = collected()
    finally:
        gc.unfreeze()
    assert left is None
