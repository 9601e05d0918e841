"""Hostile documents through the real server: every request answers within 1 s.

Each document is opened in one long-lived server; every request kind is sent
at several positions (inside, past the end of a line, past the end of the
document). A request must get a result or an expected error (never an
internal error) within a second, diagnostics stay bounded, and afterwards a
sane document still gets exactly the right answers.
"""

from __future__ import annotations

import pytest

from octoscript_lsp.limits import MAX_SOURCE_BYTES, MAX_SYNTAX_DIAGNOSTICS
from tests.robustness.session import CAPABILITIES, Session, is_failure, request_kinds

BUDGET_SECONDS = 1.0

HOSTILE = {
    "over_256_kib": "let value = 1\n" * (MAX_SOURCE_BYTES // 14 + 100),
    "brackets_20000": "let deep = " + "[" * 20_000,
    "brackets_20000_closed": "[" * 20_000 + "]" * 20_000,
    "parens_5000": "let deep = " + "(" * 5_000 + "1" + ")" * 5_000 + "\n",
    "binary": "".join(chr(code) for code in range(256)) * 64,
    "nul_bytes": 'let a = 1\n\x00\x00\x00\nlet b = "\x00"\n' * 200,
    "line_200_kb": 'let long = "' + "x" * 200_000 + '"\nlong\n',
    "line_200_kb_of_tokens": "let t = " + "a + " * 50_000 + "1\n",
    "thousands_of_errors": "let = ) } ] var match\n" * 4_000,
    "bad_lexemes": "@ # $ ~ ` 5. 'x' \\\r\n" * 4_000,
    "deep_blocks": "fn f() {\n" * 3_000 + "}\n" * 3_000,
}

# Lone surrogates are sent as JSON escapes: Python's json turns them into
# unpaired code points in the text, which no UTF-8 producer could send.
SURROGATES = {
    "lone_high": 'let a = \\"\\ud800\\"\\nlet \\ud800b = 1\\n\\udfff\\n',
    "lone_low_in_comment": "// \\udc00 x\\nlet  a = 1\\na\\n",
    "split_pair": "fn f(a) { a }\\nf(\\ud83d\\ude00\\ud800, \\udbff)\\n",
}

POSITIONS = [
    {"line": 0, "character": 0},
    {"line": 0, "character": 9},
    {"line": 0, "character": 150_000},
    {"line": 2, "character": 3},
    {"line": 10_000_000, "character": 10_000_000},
]


@pytest.fixture(scope="module")
def session():
    client = Session()
    client.initialize(CAPABILITIES)
    yield client
    assert client.alive(), "the server died"
    client.close()


def _exercise(session: Session, uri: str) -> None:
    session.settle()
    found = session.diagnostics.get(uri)
    assert found is not None, "no diagnostics were published"
    assert len(found) <= MAX_SYNTAX_DIAGNOSTICS + 1
    for position in POSITIONS:
        for method, params in request_kinds(uri, position):
            answer, seconds = session.timed(method, params)
            assert not is_failure(answer), (method, position, answer)
            assert seconds < BUDGET_SECONDS, (method, position, seconds)
    assert session.alive()
    assert session.sane_answers_ok() == []
    session.close_document(uri)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_document(session: Session, name: str):
    uri = f"file:///workspace/hostile/{name}.octoscript"
    session.open(uri, HOSTILE[name])
    _exercise(session, uri)


@pytest.mark.parametrize("name", list(SURROGATES))
def test_lone_surrogates(session: Session, name: str):
    uri = f"file:///workspace/hostile/{name}.octoscript"
    session.open_raw(uri, SURROGATES[name])
    _exercise(session, uri)


def test_oversized_document_gets_exactly_one_diagnostic(session: Session):
    uri = "file:///workspace/hostile/oversized.octoscript"
    session.open(uri, HOSTILE["over_256_kib"])
    session.settle()
    assert len(session.diagnostics[uri]) == 1
    report = session.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    assert len(report["result"]["items"]) == 1
    session.close_document(uri)


def test_thousands_of_errors_are_bounded(session: Session):
    uri = "file:///workspace/hostile/errors.octoscript"
    session.open(uri, HOSTILE["thousands_of_errors"])
    session.settle()
    assert 1 <= len(session.diagnostics[uri]) <= MAX_SYNTAX_DIAGNOSTICS + 1
    session.close_document(uri)


def test_hostile_edit_then_repair(session: Session):
    """A sane document turned hostile by an edit and back answers right again."""
    uri = "file:///workspace/hostile/edited.octoscript"
    session.open(uri, "let total = 1\ntotal\n")
    session.change(uri, 2, [{"text": "(" * 5_000 + "\x00\ud7ff"}])
    session.settle()
    session.change(uri, 3, [{"text": "let total = 1\ntotal\n"}])
    answer = session.request(
        "textDocument/definition",
        {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}},
    )
    assert answer["result"]["range"]["start"] == {"line": 0, "character": 4}
    session.close_document(uri)
