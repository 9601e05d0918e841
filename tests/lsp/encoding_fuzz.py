"""Differential fuzzing of position encodings over stdio, against the real server.

Three sessions (utf-8, utf-16, utf-32) receive the same random ranged edits
over non-ASCII text, each edit's range counted in the session's own
encoding; a fourth session (utf-16 unless asked otherwise) opens each
resulting text afresh. After
every edit each session is asked the same questions (positions and ranges
converted to its encoding) and every answer is converted back to code-point
offsets of the text the editor holds (`tests/sync/differential`'s model of
the protocol, written apart from the server's). Any difference between two
sessions is a divergence.

Used by `tests/lsp/test_encoding_fuzz.py` (a few short seeds, the
regressions) and `benchmarks/fuzz_encodings.py` (a long run).
"""

from __future__ import annotations

import json
import queue
import random
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field

from octoscript_lsp.analysis.problems import CODE_SOURCE_TOO_LARGE, CODE_TOO_MANY_DIAGNOSTICS
from octoscript_lsp.syntax.codes import SyntaxCode
from tests.conftest import SERVER_COMMAND
from tests.lsp import session as session_helpers
from tests.lsp.raw_client import read_message
from tests.sync.differential import (
    _spec_lines,
    as_json_decodes,
    content_offset,
    spec_column,
    spec_offset,
)

URI = "file:///workspace/fuzzed.octoscript"
SETTINGS = {
    "octoscript": {
        "toolCatalog": [
            {"name": "text.echo", "format": "text"},
            {"name": "svc.lookup", "format": "json"},
        ]
    }
}
CAPABILITIES = {
    "workspace": {"workspaceEdit": {"documentChanges": True}, "configuration": False},
    "textDocument": {
        "hover": {"contentFormat": ["plaintext"]},
        "rename": {"prepareSupport": True},
        "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
        "inlayHint": {},
        "codeLens": {},
        "semanticTokens": {
            "requests": {"full": {"delta": True}, "range": True},
            "tokenTypes": [],
            "tokenModifiers": [],
            "formats": ["relative"],
        },
    },
}
# A script of the kind a model writes: accents, an em dash, CJK and an emoji.
NON_ASCII_SCRIPT = (
    "use mod.tool\n"
    "// café ☕ — 日本語 😀\n"
    "fn greet(name, times) {\n"
    '    let msg = "héllo 😀 " + name\n'
    "    return msg\n"
    "}\n"
    'let who = "wörld—中"\n'
    "let said = greet(who, 2)\n"
    'let sent = tool.call("text.echo", said)\n'
    'json.parse("é😀")\n'
)
BASES = [
    'use mod.tool\nlet s = "é😀—中"; let x = 1\nlet y = x + 1\n',
    NON_ASCII_SCRIPT,
    'use mod.tool\r\n/* 😀 block\r\n e\u0301 — */\r\nlet a = "中"\r\nlet b = a + a\r\n',
    'let e = "😀😀"\rlet f = 2\nlet g = f\n',
    (
        "use mod.tool\n"
        'let r = tool.call("nope.tool", "😀") // octoscript: ignore[unlisted-tool]\n'
        'let q = tool.call("text.echo", "e\u0301—")\n'
        'let u = {k: r, q: "\u4e2d"}\n'
    ),
]
FRAGMENTS = [
    "\n",
    "\r\n",
    "\r",
    "😀",
    "e\u0301",
    "中",
    "—",
    "é",
    "/*",
    "*/",
    "//",
    '"',
    " ",
    "x",
    "y",
    "1",
    "=",
    "+",
    "(",
    ")",
    "{",
    "}",
    ",",
    ".",
    "let ",
    "let z = x\n",
    'tool.call("text.echo", "😀")',
    "fn h(a) {\n  return a\n}\n",
    "// octoscript: ignore[unlisted-tool]",
    "\ud83d",  # the halves of a pair, alone (only JSON can send them)
    "\ude00",
]
ENCODINGS = ("utf-8", "utf-16", "utf-32")
# Seconds a session's catalog advice takes to arrive after the last edit (the
# server waits 0.3 s for a pause in typing).
ADVICE_SETTLE_SECONDS = 0.8
ANSWER_TIMEOUT_SECONDS = 60.0


class Divergence(AssertionError):
    pass


class Client:
    """A stdio JSON-RPC client that keeps every notification and answers the
    server's own requests with null."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.answers: dict[int, dict] = {}
        self.shown: list | None = None  # the last diagnostics `pushed` saw
        self.notifications: queue.Queue[dict] = queue.Queue()
        self._arrived = threading.Condition()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while (message := read_message(stream)) is not None:
            if "method" in message and "id" in message:
                self.write({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "method" in message:
                self.notifications.put(message)
            else:
                with self._arrived:
                    self.answers[message["id"]] = message
                    self._arrived.notify_all()

    def write(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8", "surrogatepass")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params: object) -> int:
        self._next_id += 1
        self.write({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self._next_id

    def notify(self, method: str, params: object) -> None:
        self.write({"jsonrpc": "2.0", "method": method, "params": params})

    def answer(self, message_id: int) -> object:
        """The result, or ("error", message) for a refusal."""
        deadline = time.monotonic() + ANSWER_TIMEOUT_SECONDS
        with self._arrived:
            while message_id not in self.answers:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise Divergence(f"no answer to request {message_id} (server gone?)")
                self._arrived.wait(left)
            message = self.answers.pop(message_id)
        if "error" in message:
            return ("error", message["error"].get("message"))
        return message.get("result")

    def pushed(self, version: int | None, timeout: float = ANSWER_TIMEOUT_SECONDS) -> list:
        """The first diagnostics pushed for `version` (earlier ones are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.notifications.get(timeout=max(0.01, deadline - time.monotonic()))
            params = message.get("params") or {}
            if message["method"] == "textDocument/publishDiagnostics" and (
                params.get("version") == version
            ):
                self.shown = params["diagnostics"]
                return self.shown

    def latest_pushed(self) -> list | None:
        """The diagnostics the editor shows: the last ones pushed."""
        while True:
            try:
                message = self.notifications.get_nowait()
            except queue.Empty:
                return self.shown
            if message["method"] == "textDocument/publishDiagnostics":
                self.shown = message["params"]["diagnostics"]

    def start(self, encoding: str) -> None:
        answer = self.answer(
            self.request(
                "initialize",
                {
                    "processId": None,
                    "rootUri": None,
                    "capabilities": {
                        **CAPABILITIES,
                        "general": {"positionEncodings": [encoding]},
                    },
                    "initializationOptions": SETTINGS,
                },
            )
        )
        assert isinstance(answer, dict), answer
        negotiated = answer["capabilities"].get("positionEncoding", "utf-16")
        assert negotiated == encoding, negotiated
        self.notify("initialized", {})

    def stop(self) -> None:
        try:
            self.answer(self.request("shutdown", None))
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a crashed server is reported elsewhere
            self.process.kill()
            self.process.wait()


# ----------------------------------------------------------------- the model


def position(text: str, offset: int, encoding: str) -> dict:
    """The LSP position of a code-point offset (not inside a CRLF)."""
    lines = _spec_lines(text)
    for number, (start, content) in enumerate(lines):
        if offset <= start + len(content) or number == len(lines) - 1:
            return {"line": number, "character": spec_column(content, offset - start, encoding)}
    raise AssertionError("unreachable")


def odd_position(rng: random.Random, text: str, offset: int, encoding: str) -> dict:
    """Another (line, character) the protocol reads as `position`'s offset,
    when there is one: a column inside the code point that starts there
    (rounded down), past the end of its line, or a line past the last."""
    spot = position(text, offset, encoding)
    lines = _spec_lines(text)
    start, content = lines[spot["line"]]
    choice = rng.random()
    if offset == len(text) and choice < 0.3:
        return {"line": len(lines) + rng.randrange(3), "character": rng.randrange(9)}
    if offset == start + len(content):
        return {**spot, "character": spot["character"] + 1 + rng.randrange(4)}
    width = spec_column(text[offset], 1, encoding)
    if width > 1:
        return {**spot, "character": spot["character"] + 1 + rng.randrange(width - 1)}
    return spot


def lf_offset(text: str, line: int, character: int, encoding: str) -> int:
    """`spec_offset` on lines that end at LF only: where syntax diagnostics
    and semantic tokens put a bare CR (the reference's lines)."""
    lines = text.split("\n")
    if line >= len(lines):
        return len(text)
    start = sum(len(content) + 1 for content in lines[:line])
    return start + content_offset(lines[line], character, encoding)


# Syntax diagnostics count lines at LF only, as the reference does (a bare
# CR is itself one of them); every other range counts them as the protocol does.
_SYNTAX_CODES = frozenset(code.value for code in SyntaxCode) | {
    CODE_SOURCE_TOO_LARGE,
    CODE_TOO_MANY_DIAGNOSTICS,
}


def in_code_points(text: str, value: object, encoding: str, lf_only: bool = False) -> object:
    """Every {line, character} of an answer as its code-point offset in `text`."""
    if isinstance(value, dict):
        if set(value) == {"line", "character"}:
            convert = lf_offset if lf_only else spec_offset
            return convert(text, value["line"], value["character"], encoding)
        if "message" in value and "range" in value:  # a diagnostic
            lf_only = value.get("code") in _SYNTAX_CODES
        return {key: in_code_points(text, item, encoding, lf_only) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [in_code_points(text, item, encoding, lf_only) for item in value]
    return value


def token_spans(text: str, data: list[int], encoding: str) -> list[tuple[int, ...]]:
    found = []
    for line, character, length, kind, modifiers in session_helpers.decode_tokens(data):
        start = lf_offset(text, line, character, encoding)
        end = lf_offset(text, line, character + length, encoding)
        found.append((start, end, kind, modifiers))
    return found


def applied(data: list[int], delta: dict) -> list[int]:
    numbers = list(data)
    for edit in sorted(delta.get("edits", []), key=lambda item: item["start"], reverse=True):
        start = edit["start"]
        numbers[start : start + edit["deleteCount"]] = list(edit.get("data") or [])
    return numbers


_WORD = re.compile(r"\b(?!(?:let|fn|use|return|if|else)\b)[A-Za-z_]\w*")


def boundaries(text: str) -> list[int]:
    """Offsets a cursor can be at: not between a CR and its LF."""
    return [
        offset
        for offset in range(len(text) + 1)
        if not (0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n")
    ]


def _off_line_break(text: str, offset: int) -> int:
    """`offset`, or the CR before it when it is between a CR and its LF."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset - 1
    return offset


def random_offset(rng: random.Random, text: str) -> int:
    """Mostly on or just after a word (where the questions have answers)."""
    words = [match.span() for match in _WORD.finditer(text)]
    if words and rng.random() < 0.8:
        start, end = rng.choice(words)
        return rng.randint(start, end)
    return rng.choice(boundaries(text))


@dataclass
class Step:
    """One notification: a change (code points: `text[start:end]` replaced,
    or the whole text when `full`), the `more` changes sent with it, each on
    the text the one before leaves, and the questions asked after it."""

    start: int
    end: int
    inserted: str
    at: list[int]
    span: tuple[int, int]
    full: bool = False
    more: list[tuple[int, int, str]] = field(default_factory=list)

    def changes(self) -> list[tuple[int, int, str]]:
        return [(self.start, self.end, self.inserted), *self.more]

    def after(self, text: str) -> str:
        for start, end, inserted in self.changes():
            text = replaced(text, start, end, inserted)
        return text


def replaced(text: str, start: int, end: int, inserted: str) -> str:
    """The editor's text after one change, as JSON would carry it."""
    return as_json_decodes(text[:start] + inserted + text[end:])


# Text that keeps a script valid where it goes (inside a string or a
# comment, or as whole lines): most edits do, so that the questions after
# them have answers worth comparing.
WIDE = ["😀", "e\u0301", "中", "—", "é", " ", "x", "\U0001f9d1\u200d\U0001f680"]
LINES = [
    'let k = "中😀" + "e\u0301"\n',
    "// 😀 — 中 e\u0301\n",
    "/* — 😀\n 中 */\n",
    "let z = y + 1\n",
    'let w = tool.call("text.echo", "—😀")\n',
    'let v = tool.call("svc.lookup", "中")  // octoscript: ignore[unlisted-tool]\n',
    "fn h(a, b) {\n    return a + b\n}\nlet m = h(1, 2)\n",
    "let  spaced  =  {a: 1,   b: [1,2]}\n",
]
_STRING_OR_COMMENT = re.compile(r'"[^"\r\n]*"|//[^\r\n]*|/\*.*?\*/', re.DOTALL)


def _safe_edit(rng: random.Random, text: str) -> tuple[int, int, str] | None:
    """(start, end, inserted) that keeps a valid script valid, or None."""
    choice = rng.random()
    if choice < 0.4:
        spans = [match.span() for match in _STRING_OR_COMMENT.finditer(text)]
        if spans:
            start, end = rng.choice(spans)
            start += 2 if text[start] == "/" else 1
            end -= 2 if text.startswith("*/", end - 2) else (1 if text[end - 1] == '"' else 0)
            if start <= end:
                first = rng.randint(start, end)
                last = rng.randint(first, end) if rng.random() < 0.4 else first
                inserted = "".join(rng.choice(WIDE) for _ in range(rng.randrange(4)))
                return first, last, inserted
    line_starts = [0] + [match.end() for match in re.finditer(r"\r\n|\n|\r", text)]
    line_starts = [start for start in line_starts if start <= len(text)]
    where = rng.choice(line_starts)
    if choice < 0.8:
        ending = "\r\n" if "\r\n" in text else "\n"
        return where, where, rng.choice(LINES).replace("\n", ending)
    following = [start for start in line_starts if start > where]
    if following:
        return where, following[0], ""  # delete a line
    return None


def random_step(rng: random.Random, text: str) -> Step:
    first, last, inserted = _random_change(rng, text)
    more, after = [], replaced(text, first, last, inserted)
    while rng.random() < 0.2 and len(more) < 3:  # several changes in one notification
        change = _random_change(rng, after)
        more.append(change)
        after = replaced(after, *change)
    at = [random_offset(rng, after) for _ in range(2)]
    spots = boundaries(after)
    low, high = sorted((rng.choice(spots), rng.choice(spots)))
    full = rng.random() < 0.03
    return Step(first, last, inserted, at, (low, high), full=full, more=more)


def _random_change(rng: random.Random, text: str) -> tuple[int, int, str]:
    safe = _safe_edit(rng, text) if rng.random() < 0.9 else None
    if safe is not None:
        first, last, inserted = safe
        # No position of the protocol lies between a CR and its LF.
        first, last = (_off_line_break(text, offset) for offset in (first, last))
    else:
        inserted = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randrange(4)))
        points = boundaries(text)
        first = rng.choice(points)
        last = first if rng.random() < 0.5 else rng.choice(points)
        first, last = min(first, last), max(first, last)
    return first, last, inserted


@dataclass
class Session:
    encoding: str
    fresh: bool = False
    client: Client = field(default_factory=Client)
    tokens: list[int] = field(default_factory=list)
    result_id: str | None = None
    # Sends, now and then, another position with the same meaning (`odd_position`).
    rng: random.Random = field(default_factory=random.Random)

    def at(self, text: str, offset: int) -> dict:
        if self.rng.random() < 0.5:
            return odd_position(self.rng, text, offset, self.encoding)
        return position(text, offset, self.encoding)

    def open(self, text: str, version: int) -> None:
        self.client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": URI,
                    "languageId": "octoscript",
                    "version": version,
                    "text": text,
                }
            },
        )

    def change(self, before: str, step: Step, version: int) -> None:
        if self.fresh:
            self.client.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
            self.open(step.after(before), version)
            self.tokens, self.result_id = [], None
            return
        changes, text = [], before
        for number, (first, last, inserted) in enumerate(step.changes()):
            if number == 0 and step.full:
                changes.append({"text": replaced(text, first, last, inserted)})
            else:
                start = self.at(text, first)
                end = start if last == first else self.at(text, last)
                changes.append({"range": {"start": start, "end": end}, "text": inserted})
            text = replaced(text, first, last, inserted)
        self.client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": URI, "version": version}, "contentChanges": changes},
        )

    def ask(self, text: str, step: Step, version: int) -> list[tuple[str, object]]:
        """Every question, sent at once (pipelined), answers in code points."""
        client, encoding = self.client, self.encoding
        document = {"uri": URI}
        whole = {"start": position(text, 0, encoding), "end": position(text, len(text), encoding)}
        low, high = step.span
        span_start = self.at(text, low)
        span = {"start": span_start, "end": span_start if high == low else self.at(text, high)}
        asked: list[tuple[str, int]] = []

        def send(name: str, method: str, params: dict) -> None:
            asked.append((name, client.request(method, params)))

        for offset in step.at:
            at = {"textDocument": document, "position": position(text, offset, encoding)}
            send("hover", "textDocument/hover", at)
            send("definition", "textDocument/definition", at)
            send(
                "references",
                "textDocument/references",
                {**at, "context": {"includeDeclaration": True}},
            )
            send("highlights", "textDocument/documentHighlight", at)
            send("completion", "textDocument/completion", at)
            send("signature", "textDocument/signatureHelp", at)
            send(
                "selection",
                "textDocument/selectionRange",
                {"textDocument": document, "positions": [self.at(text, offset)]},
            )
            send("prepare rename", "textDocument/prepareRename", at)
            send("rename", "textDocument/rename", {**at, "newName": "renamed"})
        send("pulled", "textDocument/diagnostic", {"textDocument": document})
        send("symbols", "textDocument/documentSymbol", {"textDocument": document})
        send("folding", "textDocument/foldingRange", {"textDocument": document})
        send("lenses", "textDocument/codeLens", {"textDocument": document})
        send("hints", "textDocument/inlayHint", {"textDocument": document, "range": whole})
        send("span hints", "textDocument/inlayHint", {"textDocument": document, "range": span})
        for name, area in (("actions", whole), ("span actions", span)):
            send(
                name,
                "textDocument/codeAction",
                {"textDocument": document, "range": area, "context": {"diagnostics": []}},
            )
        send(
            "fix all",
            "textDocument/codeAction",
            {
                "textDocument": document,
                "range": whole,
                "context": {"diagnostics": [], "only": ["source.fixAll.octoscript"]},
            },
        )
        options = {"tabSize": 4, "insertSpaces": True}
        formatting = {"textDocument": document, "options": options}
        send("formatting", "textDocument/formatting", formatting)
        send(
            "range formatting",
            "textDocument/rangeFormatting",
            {"textDocument": document, "range": span, "options": options},
        )
        send("workspace symbols", "workspace/symbol", {"query": ""})
        send("tool calls", "octoscript/toolCalls", {"textDocument": document})
        send("catalog status", "octoscript/catalogStatus", {})
        send(
            "range tokens",
            "textDocument/semanticTokens/range",
            {"textDocument": document, "range": span},
        )
        if self.result_id is not None:
            send(
                "delta",
                "textDocument/semanticTokens/full/delta",
                {"textDocument": document, "previousResultId": self.result_id},
            )
        send("tokens", "textDocument/semanticTokens/full", {"textDocument": document})

        return asked

    def collect(self, text: str, version: int, asked: list) -> list[tuple[str, object]]:
        """The answers to `ask`'s questions in code points (the delta checked
        against the full tokens, which it must rebuild)."""
        encoding = self.encoding
        pushed = in_code_points(text, self.client.pushed(version), encoding)
        found: list[tuple[str, object]] = [("pushed", pushed)]
        delta = None
        for name, message_id in asked:
            answer = self.client.answer(message_id)
            if name == "delta":
                delta = answer
            elif name in ("tokens", "range tokens") and isinstance(answer, dict):
                found.append((name, token_spans(text, answer["data"], encoding)))
                if name == "tokens":
                    self._check_delta(text, delta, answer)
            else:
                found.append((name, in_code_points(text, answer, encoding)))
        return found

    def _check_delta(self, text: str, delta: object, full: dict) -> None:
        if isinstance(delta, dict):
            numbers = applied(self.tokens, delta) if "edits" in delta else delta["data"]
            wanted = token_spans(text, full["data"], self.encoding)
            if token_spans(text, numbers, self.encoding) != wanted:
                raise Divergence(f"{self.encoding}: the delta does not rebuild the full tokens")
        elif delta is not None:
            raise Divergence(f"{self.encoding}: the delta was refused: {delta}")
        self.tokens, self.result_id = list(full["data"]), full.get("resultId")


# ----------------------------------------------------------------- the run


def _compare(names: list[str], results: list[list[tuple[str, object]]], where: str) -> None:
    expected = results[0]
    for name, answers in zip(names[1:], results[1:], strict=True):
        if [key for key, _ in answers] != [key for key, _ in expected]:
            raise Divergence(f"{where}: {name} answered other questions")
        for (key, answer), (_, wanted) in zip(answers, expected, strict=True):
            if answer != wanted:
                raise Divergence(
                    f"{where}: {key} differs, {names[0]}: {json.dumps(wanted)[:600]} "
                    f"{name}: {json.dumps(answer)[:600]}"
                )


class Fuzz:
    """The four sessions, started once and reused for many sequences."""

    def __init__(self, fresh_encoding: str = "utf-16") -> None:
        self.sessions = [Session(encoding) for encoding in ENCODINGS]
        self.sessions.append(Session(fresh_encoding, fresh=True))
        for run in self.sessions:
            run.client.start(run.encoding)
        self.names = [f"{run.encoding}{' fresh' if run.fresh else ''}" for run in self.sessions]
        self.opened = False
        self.version = 0

    def stop(self) -> None:
        for run in self.sessions:
            run.client.stop()

    def sequence(self, base: str, steps: list[Step], label: str = "") -> None:
        """Open `base` and apply `steps`, comparing the sessions after each."""
        if self.opened:
            for run in self.sessions:
                run.client.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
                run.client.pushed(None)
        self.version += 1
        for run in self.sessions:
            run.tokens, run.result_id = [], None
            run.open(base, self.version)
        self.opened = True
        text = base
        for number, step in enumerate(steps):
            before = text
            text = step.after(text)
            self.version += 1
            for run in self.sessions:
                run.rng.seed(f"{label}/{number}/{run.encoding}")
                run.change(before, step, self.version)
            asked = [run.ask(text, step, self.version) for run in self.sessions]
            results = [
                run.collect(text, self.version, questions)
                for run, questions in zip(self.sessions, asked, strict=True)
            ]
            where = f"{label} step {number} text {text!r}"
            _compare(self.names, results, where)
        time.sleep(ADVICE_SETTLE_SECONDS)
        latest = [
            [("advised", in_code_points(text, run.client.latest_pushed(), run.encoding))]
            for run in self.sessions
        ]
        _compare(self.names, latest, f"{label} after the last step, text {text!r}")


def random_steps(rng: random.Random, base: str, count: int) -> list[Step]:
    text, steps = base, []
    for _ in range(count):
        step = random_step(rng, text)
        steps.append(step)
        text = step.after(text)
    return steps


def run_seed(fuzz: Fuzz, seed: int, max_steps: int = 12) -> None:
    rng = random.Random(seed)
    base = rng.choice(BASES)
    if rng.random() < 0.3:
        base = base.replace("\r\n", "\n").replace("\r", "\n")
    fuzz.sequence(base, random_steps(rng, base, rng.randint(1, max_steps)), f"seed {seed}")
