"""A hostile client, end to end, with a tally.

Run: python benchmarks/hostile_client.py [--edits 300] [--seed 11]
Writes benchmarks/results/hostile.json. Under strace when it is installed.

Scenario: malformed protocol messages; the hostile documents (over 256 KiB,
20,000 `[`, 5,000 `(`, binary, NULs, lone surrogates, a 200 KB line, thousands
of errors) with every request kind at several positions; hostile catalogs
(initializationOptions and configuration changes); 300 open documents; 300
random incremental edits each followed by a random request. A sane document
is checked after every phase and every 25 edits.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import SERVER_COMMAND  # noqa: E402
from tests.robustness.session import (  # noqa: E402
    CAPABILITIES,
    Session,
    Unanswered,
    is_failure,
    peak_rss_kib,
    request_kinds,
)
from tests.robustness.test_floods import HOSTILE_CATALOGS, _encoded  # noqa: E402
from tests.robustness.test_hostile_documents import HOSTILE, POSITIONS, SURROGATES  # noqa: E402
from tests.robustness.test_strace import forbidden_lines  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "hostile.json"
HANG_SECONDS = 5.0
SLOW_SECONDS = 1.0
MALFORMED = [
    b"{not json",
    b"[1, 2]",
    b"\xff\xfe\x00",
    b"null",
    b'{"jsonrpc": "2.0"}',
    b'{"jsonrpc": "2.0", "id": {}, "method": "textDocument/hover"}',
    b'{"jsonrpc": "2.0", "id": 77001, "method": "textDocument/hover", "params": 5}',
    b'{"jsonrpc": "2.0", "id": 77002, "method": "no/such", "params": {}}',
    b'{"jsonrpc": "2.0", "id": 77003, "method": "textDocument/completion",'
    b' "params": {"textDocument": {"uri": 1}, "position": {"line": -1}}}',
]


class Tally:
    def __init__(self) -> None:
        self.counts = {
            "requests": 0,
            "crashes": 0,
            "internal_errors": 0,
            "hangs": 0,
            "slow_requests": 0,
            "checkpoint_failures": 0,
            "checkpoints": 0,
        }
        self.slowest = 0.0
        self.notes: list[str] = []

    def ask(self, session: Session, method: str, params: object) -> None:
        self.counts["requests"] += 1
        try:
            answer, seconds = session.timed(method, params, HANG_SECONDS)
        except Unanswered:
            self.counts["hangs"] += 1
            self.notes.append(f"hang: {method}")
            return
        self.slowest = max(self.slowest, seconds)
        if seconds > SLOW_SECONDS:
            self.counts["slow_requests"] += 1
            self.notes.append(f"slow {seconds:.2f}s: {method}")
        if is_failure(answer):
            self.counts["internal_errors"] += 1
            self.notes.append(f"internal error: {method}")

    def checkpoint(self, session: Session, phase: str) -> None:
        self.counts["checkpoints"] += 1
        try:
            problems = session.sane_answers_ok(f"file:///workspace/sane-{phase}.octoscript")
        except Unanswered as error:
            problems = [str(error)]
        if problems:
            self.counts["checkpoint_failures"] += 1
            self.notes.append(f"checkpoint {phase}: {problems}")


def hostile_documents(session: Session, tally: Tally) -> None:
    for name, text in [*HOSTILE.items(), *SURROGATES.items()]:
        uri = f"file:///workspace/hostile/{name}.octoscript"
        if name in SURROGATES:
            session.open_raw(uri, text)
        else:
            session.open(uri, text)
        for position in POSITIONS:
            for method, params in request_kinds(uri, position):
                tally.ask(session, method, params)
        session.close_document(uri)
        tally.checkpoint(session, f"doc-{name}")


def hostile_catalogs(session: Session, tally: Tally) -> None:
    for name, section in HOSTILE_CATALOGS.items():
        session.send_bytes(
            _encoded(
                {
                    "jsonrpc": "2.0",
                    "method": "workspace/didChangeConfiguration",
                    "params": {"settings": {"octoscript": section}},
                }
            )
        )
        tally.ask(session, "octoscript/catalogStatus", {})
        tally.checkpoint(session, f"catalog-{name}")


def flood(session: Session, tally: Tally, count: int) -> None:
    for index in range(count):
        session.open(f"file:///workspace/flood/{index}.octoscript", f"let v{index} = {index}\n")
    tally.ask(session, "workspace/symbol", {"query": "v1"})
    tally.ask(
        session,
        "textDocument/hover",
        {
            "textDocument": {"uri": "file:///workspace/flood/0.octoscript"},
            "position": {"line": 0, "character": 5},
        },
    )
    for index in range(count):
        session.close_document(f"file:///workspace/flood/{index}.octoscript")
    tally.checkpoint(session, "flood")


def random_position(rng: random.Random) -> dict:
    pick = rng.random()
    if pick < 0.1:
        return {"line": rng.randint(0, 10**6), "character": rng.randint(0, 10**6)}
    return {"line": rng.randint(0, 12), "character": rng.randint(0, 40)}


def random_text(rng: random.Random) -> str:
    pieces = [
        "let ",
        "fn ",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "\n",
        "\r",
        "😀",
        "\ud800",
        "\x00",
        "x",
        "tool.call(",
        '"',
        "use mod.",
        ".",
        " ",
        "|a| ",
        "try ",
        "catch ",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))


def random_edits(session: Session, tally: Tally, rng: random.Random, edits: int) -> None:
    uri = "file:///workspace/fuzz.octoscript"
    session.open(uri, "let total = 1\nfn f(x) { x }\n😀 f(total)\nuse mod.tool\n")
    kinds = request_kinds(uri, {"line": 0, "character": 0})
    for step in range(edits):
        change: dict = {"text": random_text(rng)}
        if rng.random() < 0.9:
            change["range"] = {"start": random_position(rng), "end": random_position(rng)}
        session.change(uri, step + 2, [change])
        method, params = rng.choice(kinds)
        position = random_position(rng)
        params = dict(params)
        for key in ("position",):
            if key in params:
                params[key] = position
        if "range" in params:
            params["range"] = {"start": position, "end": random_position(rng)}
        if "positions" in params:
            params["positions"] = [position]
        tally.ask(session, method, params)
        if (step + 1) % 25 == 0:
            tally.checkpoint(session, f"edit-{step + 1}")
    session.close_document(uri)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    strace = shutil.which("strace")
    workdir = Path(tempfile.mkdtemp(prefix="hostile-"))
    log = workdir / "strace.log"
    command = list(SERVER_COMMAND)
    if strace:
        command = [strace, "-f", "-e", "trace=%file,%network,%process", "-o", str(log), *command]
    secret = uuid.uuid4().hex
    began = time.monotonic()
    tally = Tally()
    session = Session(command)
    session.initialize(CAPABILITIES)
    session.settle()
    mark = log.stat().st_size if strace else 0
    for body in MALFORMED:
        session.send_bytes(body)
    for message_id in (77001, 77002, 77003):
        try:
            session.wait(message_id, HANG_SECONDS)
        except Unanswered:
            tally.counts["hangs"] += 1
            tally.notes.append(f"malformed request {message_id} unanswered")
    tally.checkpoint(session, "malformed")
    for uri in ("file:///etc/passwd", f"file:///tmp/{secret}/x.octoscript"):
        session.open(uri, "let a = 1\na\n")
        for method, params in request_kinds(uri, {"line": 1, "character": 0}):
            tally.ask(session, method, params)
        session.close_document(uri)
    hostile_documents(session, tally)
    hostile_catalogs(session, tally)
    flood(session, tally, arguments.documents)
    random_edits(session, tally, rng, arguments.edits)
    alive = session.alive()
    peak = peak_rss_kib(session.process.pid if not strace else _server_pid(session))
    session.close()
    if not alive:
        tally.counts["crashes"] += 1
    forbidden: list[str] = []
    if strace:
        after = log.read_text(errors="replace")[mark:]
        forbidden = forbidden_lines(after, ["/etc/passwd", secret])
    result = {
        **tally.counts,
        "forbidden_syscalls": len(forbidden) if strace else None,
        "forbidden_examples": forbidden[:5],
        "under_strace": bool(strace),
        "peak_rss_mib": round(peak / 1024, 1),
        "slowest_request_seconds": round(tally.slowest, 3),
        "edits": arguments.edits,
        "open_documents": arguments.documents,
        "seconds": round(time.monotonic() - began, 1),
        "notes": tally.notes[:20],
    }
    shutil.rmtree(workdir, ignore_errors=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def _server_pid(session: Session) -> int:
    """Under strace the client's child is strace; the server is its child."""
    children = Path(f"/proc/{session.process.pid}/task/{session.process.pid}/children")
    return int(children.read_text().split()[0])


if __name__ == "__main__":
    main()
