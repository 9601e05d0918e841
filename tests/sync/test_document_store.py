"""The document store builds each version's analysis with the cyclic collector paused."""

from __future__ import annotations

import gc

import pytest

from octoscript_lsp import documents
from octoscript_lsp.documents import DocumentStore, collector_paused, publishing_analysis

URI = "file:///store.octoscript"


def test_the_collector_is_paused_while_a_version_is_analysed(monkeypatch: pytest.MonkeyPatch):
    seen: list[bool] = []
    real = documents.DocumentAnalysis

    def recording(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(documents, "DocumentAnalysis", recording)
    store = DocumentStore(lambda uri: "let a = 1\na\n")
    store.track(URI, 1)
    state = store.cached(URI)
    assert state is not None and state.analysis is not None and state.analysis.valid
    assert seen == [False]
    assert gc.isenabled()


def test_a_collector_switched_off_by_someone_else_stays_off():
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_comes_back_after_a_failure():
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("parse failed")
    assert gc.isenabled()


class _Cycle:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def _cycle_count() -> int:
    return sum(type(item) is _Cycle for item in gc.get_objects())


@pytest.fixture
def no_automatic_passes():
    """The collector enabled but never set off by allocations: only an
    explicit collection frees a cycle here."""
    thresholds = gc.get_threshold()
    gc.set_threshold(0)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.collect()


def test_a_first_analysis_collects_before_and_freezes_after(no_automatic_passes):
    _Cycle()
    assert _cycle_count() == 1  # garbage waiting for the collector
    frozen = gc.get_freeze_count()
    try:
        with publishing_analysis(first_analysis=True):
            assert _cycle_count() == 0  # collected, not frozen
            assert not gc.isenabled()
            made = [[index] for index in range(100)]  # tracked: the freeze takes them
        assert gc.get_freeze_count() - frozen >= len(made)
        assert gc.isenabled()
    finally:
        gc.unfreeze()


def test_a_later_version_neither_collects_nor_freezes(no_automatic_passes):
    _Cycle()
    frozen = gc.get_freeze_count()
    try:
        with publishing_analysis(first_analysis=False):
            assert _cycle_count() == 1
            assert not gc.isenabled()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_a_failed_first_analysis_is_not_frozen():
    frozen = gc.get_freeze_count()
    try:
        with pytest.raises(RuntimeError), publishing_analysis(first_analysis=True):
            raise RuntimeError("parse failed")
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled()
    finally:
        gc.unfreeze()
