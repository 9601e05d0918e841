"""Sending the two largest answers as JSON text (`features.wire`) or as lsprotocol objects.

At 4,090 lines the semantic tokens (tens of thousands of integers) and the
outline (thousands of symbols) are built as JSON text from pieces kept per
statement, and the protocol frames that text as it is. The plain pygls way
is a typed answer (`SemanticTokens`, `list[DocumentSymbol]`) that the
converter unstructures and `json.dumps` encodes. This opens the generated
document in the server object, takes both answers from their handlers and
prints the median CPU milliseconds, over --runs, of:

- `wire`: framing the text as `protocol._send_text_answer` does;
- `typed send`: unstructuring and encoding the same answer as lsprotocol
  objects (what pygls does with a typed result);
- `typed build`: making those objects (attrs, as a feature would).

    python benchmarks/bench_wire.py [--lines 4090] [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))

from lspbench import CATALOG, generate  # noqa: E402
from lsprotocol import types  # noqa: E402

from octoscript_lsp import server as server_module  # noqa: E402
from octoscript_lsp.server import server  # noqa: E402

URI = "file:///bench/wire.octoscript"


class _NullWriter:
    def write(self, data: bytes) -> None:
        pass


def _handle(message: dict) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message})
    server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))


def open_document(lines: int) -> None:
    server.protocol.set_writer(_NullWriter())
    capabilities = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
    params = {"capabilities": capabilities, "initializationOptions": CATALOG}
    _handle({"id": 1, "method": "initialize", "params": params})
    _handle({"method": "initialized", "params": {}})
    document = {"uri": URI, "languageId": "octoscript", "version": 1, "text": generate(lines)}
    _handle({"method": "textDocument/didOpen", "params": {"textDocument": document}})


def _median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def _frame(text: str) -> bytes:
    """As `protocol._send_text_answer` frames a JSON-text result."""
    prefix = b'{"id":1,"jsonrpc":"2.0","result":'
    body = text.encode("utf-8")
    header = b"Content-Length: %d\r\n\r\n" % (len(prefix) + len(body) + 1)
    return b"".join((header, prefix, body, b"}"))


def _typed_send(answer: object) -> bytes:
    data = {"id": 1, "jsonrpc": "2.0", "result": server.protocol._converter.unstructure(answer)}
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=4090)
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    open_document(options.lines)
    document = types.TextDocumentIdentifier(uri=URI)
    converter = server.protocol._converter
    answers = {
        "semanticTokens": (
            server_module.semantic_tokens_full(
                server, types.SemanticTokensParams(text_document=document)
            ),
            lambda value: types.SemanticTokens(data=value["data"]),
        ),
        "documentSymbol": (
            server_module.document_symbol(
                server, types.DocumentSymbolParams(text_document=document)
            ),
            lambda value: converter.structure(value, list[types.DocumentSymbol]),
        ),
    }
    for name, (text, build) in answers.items():
        value = json.loads(text)
        typed = build(value)
        wire = _median_ms(lambda text=text: _frame(text), options.runs)
        send = _median_ms(lambda typed=typed: _typed_send(typed), options.runs)
        made = _median_ms(lambda value=value, build=build: build(value), options.runs)
        print(
            f"{name:15} {len(text):7} bytes   wire {wire:6.2f} ms   typed send {send:6.2f} ms"
            f"   typed build {made:6.2f} ms"
        )


if __name__ == "__main__":
    main()
