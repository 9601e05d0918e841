"""Bounded, deterministic keyword search over the valid tool and module catalogs.

- The query is split on whitespace into case-insensitive (casefolded)
  keywords; a candidate matches when every keyword occurs in its id or its
  description.
- Candidates: every tool of a valid ``toolCatalog`` (id = tool name) and every
  explicit descriptor of a valid ``moduleCatalog`` (id = dotted path). Inferred
  intermediate namespaces are not candidates. Discarded, cleared or absent
  projections contribute nothing.
- Each keyword gets a class: 0 exact id, 1 id prefix, 2 id substring,
  3 description only. Hits are ordered by (worst class, sum of classes, id,
  kind), so an exact id outranks a prefix, which outranks a substring, which
  outranks a description-only match; ties are broken by id.
- At most ``MAX_SEARCH_HITS`` hits (or ``limit`` clamped to 1..16) and at most
  ``MAX_SEARCH_RESULT_BYTES`` for the compact UTF-8 JSON array of hits; the
  returned hits are always a prefix of the ranked list; ``truncated`` is true
  when more candidates matched than were returned.
- A hit carries ``id``, ``kind`` (``tool``/``module``), ``format`` (tools),
  ``callMode`` (modules that have one) and a whitespace-collapsed ``summary`` of
  at most ``MAX_SEARCH_SUMMARY_CHARS`` characters. Never schemas or fields.
- ``generation`` is the *sum* of the tool and module projection generations;
  both only grow, so the sum grows whenever either catalog changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from octoscript_lsp.catalogs.fingerprint import canonical_json
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.limits import (
    MAX_SEARCH_HITS,
    MAX_SEARCH_QUERY_BYTES,
    MAX_SEARCH_RESULT_BYTES,
    MAX_SEARCH_SUMMARY_CHARS,
)

ELLIPSIS = "\u2026"
_DESCRIPTION_ONLY = 3


class InvalidSearchQuery(ValueError):
    """The query is empty, blank, too long or not text (maps to InvalidParams)."""


@attrs.frozen
class _Candidate:
    id: str
    kind: str
    description: str
    extra: dict[str, str]


def validate_query(query: object) -> list[str]:
    """Casefolded keywords of a valid query; raises ``InvalidSearchQuery``."""
    if not isinstance(query, str):
        raise InvalidSearchQuery("query must be a string")
    if len(query) > MAX_SEARCH_QUERY_BYTES:
        raise InvalidSearchQuery(f"query exceeds {MAX_SEARCH_QUERY_BYTES} bytes")
    try:
        size = len(query.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise InvalidSearchQuery("query is not valid UTF-8 text") from error
    if size > MAX_SEARCH_QUERY_BYTES:
        raise InvalidSearchQuery(f"query exceeds {MAX_SEARCH_QUERY_BYTES} bytes")
    keywords = query.casefold().split()
    if not keywords:
        raise InvalidSearchQuery("query is empty")
    return keywords


def clamp_limit(limit: object) -> int:
    if limit is None:
        return MAX_SEARCH_HITS
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise InvalidSearchQuery("limit must be an integer")
    return max(1, min(MAX_SEARCH_HITS, limit))


def summarize(description: str) -> str:
    text = " ".join(description.split())
    if len(text) <= MAX_SEARCH_SUMMARY_CHARS:
        return text
    return text[: MAX_SEARCH_SUMMARY_CHARS - 1] + ELLIPSIS


def _candidates(store: CatalogStore) -> Iterator[_Candidate]:
    tools = store.tool_catalog
    if tools is not None:
        for tool in tools.tools:
            yield _Candidate(tool.name, "tool", tool.description, {"format": tool.format.value})
    modules = store.module_catalog
    if modules is not None:
        for module in modules.descriptors:
            extra = {} if module.call_mode is None else {"callMode": module.call_mode.value}
            yield _Candidate(module.dotted, "module", module.description, extra)


def _keyword_class(keyword: str, ident: str, description: str) -> int | None:
    if ident == keyword:
        return 0
    if ident.startswith(keyword):
        return 1
    if keyword in ident:
        return 2
    if keyword in description:
        return _DESCRIPTION_ONLY
    return None


def _rank(candidate: _Candidate, keywords: list[str]) -> tuple[int, int, str, str] | None:
    ident = candidate.id.casefold()
    description = candidate.description.casefold()
    classes: list[int] = []
    for keyword in keywords:
        found = _keyword_class(keyword, ident, description)
        if found is None:
            return None
        classes.append(found)
    return (max(classes), sum(classes), candidate.id, candidate.kind)


def _hit(candidate: _Candidate) -> dict[str, Any]:
    hit: dict[str, Any] = {"id": candidate.id, "kind": candidate.kind}
    hit.update(candidate.extra)
    hit["summary"] = summarize(candidate.description)
    return hit


def _take_within_budget(ranked: list[_Candidate], max_hits: int) -> list[dict[str, Any]]:
    hits: list[dict[str, Any]] = []
    used = 2  # the enclosing brackets of the serialized array
    for candidate in ranked[:max_hits]:
        hit = _hit(candidate)
        size = len(canonical_json(hit)) + (1 if hits else 0)
        if used + size > MAX_SEARCH_RESULT_BYTES:
            break
        used += size
        hits.append(hit)
    return hits


def search_tools(store: CatalogStore, query: object, limit: object = None) -> dict[str, Any]:
    """``{generation, truncated, tools: [...]}`` for ``octoscript/searchTools``."""
    keywords = validate_query(query)
    max_hits = clamp_limit(limit)
    scored: list[tuple[tuple[int, int, str, str], _Candidate]] = []
    for candidate in _candidates(store):
        rank = _rank(candidate, keywords)
        if rank is not None:
            scored.append((rank, candidate))
    scored.sort(key=lambda item: item[0])
    ranked = [candidate for _, candidate in scored]
    hits = _take_within_budget(ranked, max_hits)
    return {
        "generation": store.tools.generation + store.modules.generation,
        "truncated": len(hits) < len(ranked),
        "tools": hits,
    }
