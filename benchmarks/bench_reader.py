"""CPU per message read: the server's `MessageReader` or pygls' own stdin reader.

The server's loop awaits `MessageReader.next_body`, which hands over a body
framed already without a thread; pygls' `StdinAsyncReader` reads every
header line and body through `run_in_executor`, a worker thread each. This
reads the same framed didChange messages both ways, in turn in one process
(so the machine's drift falls on both alike), and prints the median CPU and
wall microseconds per message of each and their ratio. A keystroke+request
is two messages.

    python benchmarks/bench_reader.py [--messages 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from pygls.io_ import StdinAsyncReader

from octoscript_lsp.transport import MessageReader


def framed_changes(count: int) -> bytes:
    """`count` framed didChange notifications of one digit each."""
    messages = []
    for version in range(2, count + 2):
        change = {
            "range": {"start": {"line": 9, "character": 4}, "end": {"line": 9, "character": 5}},
            "text": str(version % 10),
        }
        params = {
            "textDocument": {"uri": "file:///bench.octoscript", "version": version},
            "contentChanges": [change],
        }
        body = json.dumps(
            {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": params}
        ).encode()
        messages.append(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    return b"".join(messages)


async def read_with_pygls(reader: StdinAsyncReader, count: int) -> None:
    """The header loop of pygls' `run_async`, minus handling the bodies."""
    for _ in range(count):
        header = await reader.readline()
        length = int(header.split(b":")[1])
        await reader.readline()  # the blank line
        await reader.readexactly(length)


async def read_with_ours(reader: MessageReader, count: int) -> None:
    for _ in range(count):
        await reader.next_body()


def per_message_us(stream: bytes, count: int, ours: bool) -> tuple[float, float]:
    """(CPU, wall) microseconds per message, the reader thread's framing included."""
    cpu, wall = time.process_time(), time.perf_counter()
    if ours:
        asyncio.run(read_with_ours(MessageReader(io.BytesIO(stream)).start(), count))
    else:
        with ThreadPoolExecutor() as pool:
            asyncio.run(read_with_pygls(StdinAsyncReader(io.BytesIO(stream), pool), count))
    return (
        (time.process_time() - cpu) / count * 1e6,
        (time.perf_counter() - wall) / count * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    stream = framed_changes(options.messages)
    figures: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for _ in range(options.rounds):
        for own in (True, False):
            figures[own].append(per_message_us(stream, options.messages, own))
    for own, name in ((True, "MessageReader"), (False, "pygls reader")):
        cpu = statistics.median(value for value, _ in figures[own])
        wall = statistics.median(value for _, value in figures[own])
        print(f"{name:13} cpu {cpu:7.1f} us   wall {wall:7.1f} us   per message")
    ratios = [pool[0] / own[0] for own, pool in zip(figures[True], figures[False], strict=True)]
    print(f"pygls reader / MessageReader cpu: median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
