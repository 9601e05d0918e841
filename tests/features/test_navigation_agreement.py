"""Differential: at every cursor offset of the fixture documents, definition,
references, highlights and rename act on the one binding the site classifier
gives, and their answers agree with each other."""

from __future__ import annotations

from pathlib import Path

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.site_resolution import (
    NO_SITE,
    BindingOccurrence,
    Member,
    Request,
    resolve_binding,
    resolve_site,
)
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features import navigation
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.syntax.tree import SymbolKind

from .helpers import URI, rng

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures").glob("*.octoscript"))
NEW_NAME = "renamed_binding"


@pytest.fixture(params=FIXTURES, ids=lambda path: path.stem)
def fixture(request) -> tuple[str, DocumentAnalysis, PositionMap]:
    source = request.param.read_text()
    analysis = DocumentAnalysis(source, 1)
    assert analysis.valid and not analysis.lexical.truncated
    assert analysis.lexical.symbols  # every fixture binds names
    return source, analysis, PositionMap(source)


def _offsets(source: str) -> list[int | None]:
    return [None, *range(len(source) + 1)]


def test_every_request_classifies_the_same_binding(fixture):
    source, analysis, _ = fixture
    catalogs = CatalogStore()
    bound = 0
    for offset in _offsets(source):
        definition = resolve_site(analysis, offset, catalogs, Request.DEFINITION)
        found = {
            request: resolve_binding(analysis, offset, request)
            for request in (Request.REFERENCES, Request.HIGHLIGHT, Request.RENAME)
        }
        assert found[Request.HIGHLIGHT] == found[Request.REFERENCES], offset
        if isinstance(definition, BindingOccurrence):
            bound += 1
            assert found[Request.REFERENCES] == definition, offset
            assert found[Request.RENAME] == definition, offset
        else:
            # No binding for definition: a record key (a member) or nothing,
            # and none for references and highlights either.
            assert definition is NO_SITE or isinstance(definition, Member), offset
            assert found[Request.REFERENCES] is NO_SITE, offset
            renamed = found[Request.RENAME]
            if renamed is not NO_SITE:
                # Only a cursor just past a name: that name's binding.
                assert offset is not None and renamed.occurrence.end == offset
                before = resolve_site(analysis, offset - 1, catalogs, Request.DEFINITION)
                assert before == renamed, offset
    assert bound > 0


def _spans(ranges) -> list[tuple[int, int, int, int]]:
    return sorted(rng(item.range) for item in ranges)


def test_the_answers_name_the_same_binding(fixture):
    source, analysis, positions = fixture
    catalogs = CatalogStore()
    edits_by_binding: dict[tuple, list] = {}
    for offset in _offsets(source):
        everywhere = _spans(navigation.references(analysis, positions, URI, offset, True))
        assert _spans(navigation.highlights(analysis, positions, offset)) == everywhere
        found = navigation.definition(analysis, positions, URI, offset, catalogs)
        placeholder = navigation.prepare_rename(analysis, positions, offset)
        if not everywhere:
            if placeholder is not None:
                # A cursor just past a name renames the binding before it.
                assert offset is not None and offset > 0
                end = positions.position(offset)
                assert rng(placeholder.range)[2:] == (end.line, end.character)
                previous = navigation.references(analysis, positions, URI, offset - 1, True)
                assert _spans(previous), offset
            continue
        # Definition goes to the one occurrence the others leave out without
        # the declaration, and to no place outside the binding's.
        declared = rng(found.range)
        assert declared in everywhere, offset
        without = _spans(navigation.references(analysis, positions, URI, offset, False))
        assert sorted([*without, declared]) == everywhere, offset
        symbol = resolve_binding(analysis, offset, Request.RENAME).occurrence.symbol
        if symbol.kind is SymbolKind.IMPORT:
            assert placeholder is None
            continue
        assert placeholder is not None and rng(placeholder.range) in everywhere, offset
        key = tuple(everywhere)
        if key not in edits_by_binding:
            edit = navigation.rename(analysis, positions, URI, 1, offset, NEW_NAME)
            edits_by_binding[key] = _spans(edit.document_changes[0].edits)
        assert edits_by_binding[key] == everywhere, offset
    assert edits_by_binding
