"""The delayed catalog-advice pass: one per document, for its newest version."""

from __future__ import annotations

import asyncio

from octoscript_lsp import server as server_module
from octoscript_lsp.server import (
    ADVISORY_DELAY_SECONDS,
    SETTLED_ADVISORY_DELAY_SECONDS,
    OctoscriptServer,
)

URI = "file:///typing.octoscript"


def test_a_newer_version_replaces_the_pending_advice_pass(monkeypatch):
    advised: list[int] = []

    def advice(analysis, positions, catalogs) -> list:
        advised.append(analysis.version)
        return []

    monkeypatch.setattr(server_module.diagnostics, "advisory_diagnostics", advice)
    ls = OctoscriptServer()
    monkeypatch.setattr(ls, "catalogs_can_advise", lambda: True)
    monkeypatch.setattr(ls, "_send_diagnostics", lambda uri, version, found: None)

    async def type_three_versions() -> list[asyncio.TimerHandle]:
        handles = []
        for version in (1, 2, 3):
            ls.texts.open(URI, version, f"let total = {version}\n")
            ls.publish(URI, version, ls.documents.track(URI, version))
            handles.append(ls._advice_timers[URI])
        await asyncio.sleep(ADVISORY_DELAY_SECONDS + 0.2)
        return handles

    handles = asyncio.run(type_three_versions())
    assert [handle.cancelled() for handle in handles] == [True, True, False]
    assert advised == [3]
    assert ls._advice_timers == {}


def test_an_opened_text_is_advised_after_a_moment_and_a_typed_one_after_a_pause(monkeypatch):
    ls = OctoscriptServer()
    monkeypatch.setattr(ls, "catalogs_can_advise", lambda: True)
    monkeypatch.setattr(ls, "_send_diagnostics", lambda uri, version, found: None)

    async def open_then_type() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        ls.texts.open(URI, 1, "let total = 1\n")
        opened_at = loop.time()
        ls.publish(URI, 1, ls.documents.track(URI, 1), settled=True)
        opened = ls._advice_timers[URI].when() - opened_at
        ls.texts.open(URI, 2, "let total = 2\n")
        typed_at = loop.time()
        ls.publish(URI, 2, ls.documents.track(URI, 2))
        typed = ls._advice_timers[URI].when() - typed_at
        ls._advice_timers[URI].cancel()
        return opened, typed

    opened, typed = asyncio.run(open_then_type())
    assert SETTLED_ADVISORY_DELAY_SECONDS <= opened < ADVISORY_DELAY_SECONDS
    assert typed >= ADVISORY_DELAY_SECONDS
