"""Document floods and hostile catalogs: bounded work, bounded memory, still serving."""

from __future__ import annotations

import json
import time

import pytest

from octoscript_lsp.limits import MAX_OPEN_DOCUMENTS
from tests.robustness.session import CAPABILITIES, Session, peak_rss_kib

PEAK_RSS_KIB = 150 * 1024
DEEP = 5_000


def _uri(index: int) -> str:
    return f"file:///workspace/flood/doc{index}.octoscript"


def _text(index: int) -> str:
    return f"let value{index} = {index}\nfn twice(x) {{\n    x * 2\n}}\ntwice(value{index})\n" * 20


def _hover_start(session: Session, uri: str):
    answer = session.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": 4, "character": 8}},
    )
    if "error" in answer:
        return answer["error"]["code"]
    result = answer["result"]
    return result and result["range"]["start"]


def test_three_hundred_documents():
    session = Session()
    try:
        session.initialize(CAPABILITIES)
        for index in range(300):
            session.open(_uri(index), _text(index))
        session.settle(60)
        limited = [
            index
            for index in range(300)
            if "open documents" in json.dumps(session.diagnostics[_uri(index)])
        ]
        assert limited == list(range(MAX_OPEN_DOCUMENTS, 300))
        # Earlier documents still answer; refused ones are not open (RequestFailed).
        assert _hover_start(session, _uri(0)) == {"line": 4, "character": 6}
        assert _hover_start(session, _uri(MAX_OPEN_DOCUMENTS - 1)) == {"line": 4, "character": 6}
        assert _hover_start(session, _uri(200)) == -32803
        # Closing one frees a slot for the next document opened.
        session.close_document(_uri(0))
        session.open("file:///workspace/flood/late.octoscript", _text(1))
        session.settle()
        assert session.diagnostics["file:///workspace/flood/late.octoscript"] == []
        assert session.sane_answers_ok() != []  # the budget is full again: refused
        assert peak_rss_kib(session.process.pid) <= PEAK_RSS_KIB
    finally:
        session.close()


def _deep_array(depth: int) -> str:
    return "[" * depth + "]" * depth


HOSTILE_CATALOGS = {
    "huge_description": {
        "toolCatalog": [{"name": "text.echo", "format": "text", "description": "d" * 5_000_000}]
    },
    "hundred_thousand_tools": {
        "toolCatalog": [
            {"name": f"t.n{index}", "format": "text", "description": "x"}
            for index in range(100_000)
        ]
    },
    "hundred_thousand_modules": {
        "moduleCatalog": [{"path": f"mod.app.m{index}"} for index in range(100_000)]
    },
    "wrong_types": {
        "toolCatalog": {"name": 5},
        "moduleCatalog": [1, None, "x"],
        "workflowDataCatalog": [],
        "workflowDataStepContext": 7,
    },
    "wrong_field_types": {
        "toolCatalog": [{"name": ["a"], "format": 1, "description": {}}],
        "moduleCatalog": [{"path": 3, "inputFields": "x"}],
    },
    "deep_json": {
        "toolCatalog": "@DEEP@",
        "moduleCatalog": [{"path": "mod.a.b", "inputFields": "@DEEP@"}],
    },
}


def _encoded(message: dict) -> bytes:
    return json.dumps(message).replace('"@DEEP@"', _deep_array(DEEP)).encode("utf-8")


def _states(session: Session, timeout: float = 5.0) -> dict[str, str]:
    status = session.request("octoscript/catalogStatus", {}, timeout)["result"]
    return {key: value["state"] for key, value in status.items() if key != "catalogFiles"}


@pytest.mark.parametrize("name", list(HOSTILE_CATALOGS))
def test_hostile_catalog_in_initialization_options(name: str):
    session = Session()
    try:
        began = time.monotonic()
        session.send_bytes(
            _encoded(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "capabilities": CAPABILITIES,
                        "initializationOptions": {"octoscript": HOSTILE_CATALOGS[name]},
                    },
                }
            )
        )
        assert "result" in session.wait(0, 10)
        session.notify("initialized", {})
        states = _states(session)
        assert time.monotonic() - began < 5
        for key in HOSTILE_CATALOGS[name]:
            projection = "workflowData" if key.startswith("workflow") else key
            assert states[projection] == "discarded", (key, states)
        assert session.sane_answers_ok() == []
        assert peak_rss_kib(session.process.pid) <= PEAK_RSS_KIB
    finally:
        session.close()


def test_hostile_catalogs_in_configuration_changes():
    session = Session()
    try:
        session.initialize(CAPABILITIES)
        for name, section in HOSTILE_CATALOGS.items():
            good = {
                "toolCatalog": [{"name": "text.echo", "format": "text"}],
                "moduleCatalog": [{"path": "mod.app.x"}],
            }
            session.notify("workspace/didChangeConfiguration", {"settings": {"octoscript": good}})
            assert _states(session)["toolCatalog"] == "valid"
            began = time.monotonic()
            session.send_bytes(
                _encoded(
                    {
                        "jsonrpc": "2.0",
                        "method": "workspace/didChangeConfiguration",
                        "params": {"settings": {"octoscript": section}},
                    }
                )
            )
            states = _states(session)
            assert time.monotonic() - began < 5, name
            for key in section:
                projection = "workflowData" if key.startswith("workflow") else key
                assert states[projection] == "discarded", (name, key, states)
            assert session.sane_answers_ok() == []
        # A deep request still gets its answer (InvalidParams: not a string query).
        answer_id = 424242
        session.send_bytes(
            _encoded(
                {
                    "jsonrpc": "2.0",
                    "id": answer_id,
                    "method": "octoscript/searchTools",
                    "params": {"query": "@DEEP@"},
                }
            )
        )
        assert session.wait(answer_id, 5)["error"]["code"] == -32602
        assert peak_rss_kib(session.process.pid) <= PEAK_RSS_KIB
    finally:
        session.close()


def test_refused_documents_keep_no_text_and_never_touch_disk(tmp_path):
    """A document over the budget is not stored; its URI is never read."""
    from octoscript_lsp.server import OctoscriptServer

    on_disk = tmp_path / "secret.octoscript"
    on_disk.write_text("let from_disk = 1\n")

    ls = OctoscriptServer()
    # A URI the client never opened: no text, and no file read behind it.
    assert ls.texts.text(on_disk.as_uri()) is None
    assert ls.documents.cached(on_disk.as_uri()) is None
    ls.texts.open(on_disk.as_uri(), 1, "x\n")
    assert ls.texts.text(on_disk.as_uri()) == "x\n"
