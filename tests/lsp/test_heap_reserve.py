"""The first analysis's heap reserve is given back when no document comes."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from octoscript_lsp import server as server_module
from octoscript_lsp.limits import HEAP_RESERVE_SECONDS
from octoscript_lsp.server import OctoscriptServer


def test_a_server_with_no_document_gives_the_reserve_back_after_a_while():
    ls = OctoscriptServer()
    reserve = ls.documents.heap_reserve

    async def wait_for_a_document() -> tuple[int, int]:
        reserve.fill(1024 * 1024)
        ls.release_heap_reserve_later(0.01)
        held = len(reserve.pins)
        await asyncio.sleep(0.1)
        return held, len(reserve.pins)

    held, left = asyncio.run(wait_for_a_document())
    assert held == 3
    assert left == 0


def test_initialized_starts_the_wait(monkeypatch):
    ls = OctoscriptServer()
    waits: list[float] = []
    monkeypatch.setattr(ls, "release_heap_reserve_later", lambda: waits.append(1.0))
    monkeypatch.setattr(ls, "watch_catalog_files", lambda: None)
    ls.protocol.client_capabilities = types.ClientCapabilities()
    server_module.initialized(ls, types.InitializedParams())
    assert waits == [1.0]
    assert HEAP_RESERVE_SECONDS >= 5.0  # an editor opens its document well before
