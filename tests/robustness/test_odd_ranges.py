"""Range requests with odd ranges (reversed, past the end, negative) over stdio."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.lsp.catalog_data import MODULES, TOOLS
from tests.robustness.authoring_fuzz import AUTHORING_BASES
from tests.robustness.session import CAPABILITIES, Session, is_failure

URI = "file:///workspace/odd.octoscript"
COORDINATE = st.integers(0, 8) | st.sampled_from([-1, 2**31 - 1, 2**31, 10**6])
POSITION = st.fixed_dictionaries({"line": COORDINATE, "character": COORDINATE})
RANGE = st.fixed_dictionaries({"start": POSITION, "end": POSITION})
METHODS = st.sampled_from(
    [
        "textDocument/rangeFormatting",
        "textDocument/inlayHint",
        "textDocument/codeAction",
        "textDocument/semanticTokens/range",
    ]
)
EXTRA = {
    "textDocument/rangeFormatting": {"options": {"tabSize": 4, "insertSpaces": True}},
    "textDocument/codeAction": {"context": {"diagnostics": []}},
}


@pytest.fixture(scope="module")
def session():
    client = Session()
    capabilities = {**CAPABILITIES, "textDocument": {**CAPABILITIES["textDocument"]}}
    capabilities["textDocument"]["inlayHint"] = {}
    client.initialize(
        capabilities, {"octoscript": {"toolCatalog": TOOLS, "moduleCatalog": MODULES}}
    )
    yield client
    client.close()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    text=st.sampled_from(AUTHORING_BASES),
    crlf=st.booleans(),
    requests=st.lists(st.tuples(METHODS, RANGE), min_size=1, max_size=6),
)
def test_odd_ranges_are_answered_or_refused(session: Session, text, crlf, requests):
    session.open(URI, text.replace("\n", "\r\n") if crlf else text)
    for method, span in requests:
        params = {"textDocument": {"uri": URI}, "range": span, **EXTRA.get(method, {})}
        answer = session.request(method, params, timeout=10)
        assert not is_failure(answer), (method, span, answer)
        assert "result" in answer or answer["error"]["code"] in (-32602, -32803), answer
    session.close_document(URI)
    assert session.alive()
