"""No file, environment, network or exec: the server under strace, and an env trap."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import uuid
from collections.abc import Iterator, MutableMapping
from pathlib import Path

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features import (
    code_actions,
    diagnostics,
    folding,
    formatting,
    hover,
    navigation,
    semantic_tokens,
    signature,
    symbols,
    tool_calls,
)
from octoscript_lsp.features.positions import PositionMap
from tests.conftest import SERVER_COMMAND
from tests.features.helpers import complete
from tests.robustness.session import CAPABILITIES, SANE_TEXT, Session, request_kinds

STRACE = shutil.which("strace")
FORBIDDEN_FAMILY = re.compile(r"\b(socket|connect|bind|sendto|sendmsg)\(.*AF_(INET6?|UNIX)")
EXEC = re.compile(r"\b(execve|execveat|fork|vfork)\(")
CLONE = re.compile(r"\bclone3?\(")


def forbidden_lines(log: str, document_paths: list[str]) -> list[str]:
    """Lines of an strace log that break a promise (document path, network, exec)."""
    bad = []
    for line in log.splitlines():
        if any(path in line for path in document_paths):
            bad.append(line)
        elif FORBIDDEN_FAMILY.search(line) or EXEC.search(line):
            bad.append(line)
        elif CLONE.search(line) and "CLONE_THREAD" not in line:
            bad.append(line)  # a new process, not a thread
    return bad


def strace_command(log: Path) -> list[str]:
    assert STRACE is not None
    return [STRACE, "-f", "-e", "trace=%file,%network,%process", "-o", str(log), *SERVER_COMMAND]


def drive(session: Session, uris: list[str]) -> None:
    """Documents, every request kind, catalogs: a whole session's worth of work."""
    session.notify(
        "workspace/didChangeConfiguration",
        {
            "settings": {
                "octoscript": {
                    "toolCatalog": [
                        {"name": "text.echo", "format": "text", "description": "Echo."}
                    ],
                    "moduleCatalog": [
                        {"path": "mod.app.weather.current", "callMode": "synchronous"}
                    ],
                }
            }
        },
    )
    for uri in uris:
        session.open(uri, SANE_TEXT + 'use mod.tool\ntool.call("text.echo", "x")\n')
        for line in range(6):
            for method, params in request_kinds(uri, {"line": line, "character": 3}):
                session.request(method, params)
        session.change(
            uri,
            2,
            [
                {
                    "range": {
                        "start": {"line": 0, "character": 0},
                        "end": {"line": 0, "character": 3},
                    },
                    "text": "let",
                }
            ],
        )
        session.request(
            "textDocument/formatting",
            {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
        )
        # A lens's argument, and one no lens sends (a document URI): refused.
        lens = {"kind": "tool", "method": "call", "label": "text.echo"}
        for arguments in ([lens], [uri]):
            session.request(
                "workspace/executeCommand",
                {"command": "octoscript.showToolCall", "arguments": arguments},
            )
        session.close_document(uri)


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (CI installs it)")
def test_server_opens_no_document_path_connects_nowhere_execs_nothing(tmp_path: Path):
    secret = uuid.uuid4().hex
    secret_dir = Path("/tmp") / secret
    document_paths = [
        "/etc/passwd",
        "/etc/shadow",
        str(secret_dir),
        secret,
        "/root/.ssh/id_rsa",
        "/proc/self/environ",
    ]
    uris = [
        "file:///etc/passwd",
        "file:///etc/shadow",
        f"file://{secret_dir}/x.octoscript",
        f"file:///tmp/{secret}/../../etc/passwd",
        "file:///root/.ssh/id_rsa",
        "file:///proc/self/environ",
        f"untitled:{secret}",
        "file://host.example/share/x",
    ]
    log = tmp_path / "strace.log"
    session = Session(strace_command(log))
    try:
        session.initialize(CAPABILITIES)
        session.settle()
        mark = log.stat().st_size
        drive(session, uris)
        session.settle()
        assert session.alive()
    finally:
        session.close()
    after = log.read_text(errors="replace")[mark:]
    assert after.strip(), "strace recorded nothing after initialize"
    assert forbidden_lines(after, document_paths) == []
    assert not secret_dir.exists()
    # Catalogs arrived after initialize: the schema was read at start-up.
    assert "settings.schema.json" not in after


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (CI installs it)")
def test_server_opens_only_the_catalog_files_its_settings_name(tmp_path: Path):
    folder = tmp_path / "host"
    folder.mkdir()
    tools = [{"name": "text.echo", "format": "text", "description": "Echo."}]
    named = folder / "tools.json"
    later = folder / "later.json"
    for path in (named, later, folder / "decoy.json", folder / "tools.json.bak"):
        path.write_text(json.dumps(tools), encoding="utf-8")
    missing = folder / "missing.json"
    log = tmp_path / "strace.log"
    session = Session(strace_command(log))
    try:
        options = {"octoscript": {"catalogFiles": [str(named), str(missing)]}}
        session.initialize(CAPABILITIES, options)
        session.settle()
        session.open("file:///w/a.octoscript", 'use mod.tool\ntool.call("")\n')
        session.request(
            "textDocument/completion",
            {
                "textDocument": {"uri": "file:///w/a.octoscript"},
                "position": {"line": 1, "character": 11},
            },
        )
        changes = [
            {"uri": (folder / name).as_uri(), "type": 2} for name in ("tools.json", "decoy.json")
        ]
        session.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        session.request("workspace/executeCommand", {"command": "octoscript.reloadCatalogs"})
        settings = {"octoscript": {"catalogFiles": [str(later)]}}
        session.notify("workspace/didChangeConfiguration", {"settings": settings})
        session.settle()
        assert session.alive()
    finally:
        session.close()
    touched = [line for line in log.read_text(errors="replace").splitlines() if str(folder) in line]
    allowed = {f'"{path}"' for path in (named, missing, later)}
    assert touched and all(any(path in line for path in allowed) for line in touched), touched
    assert any("openat" in line and str(named) in line for line in touched)
    assert any("openat" in line and str(later) in line for line in touched)


def test_forbidden_lines_detects_what_it_should():
    log = "\n".join(
        [
            '12 openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = 3',
            "12 socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 4",
            '12 connect(5, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = 0',
            '12 execve("/bin/sh", ["sh"], 0x0 /* 1 var */) = 0',
            "12 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD) = 13",
            "12 clone3({flags=CLONE_VM|CLONE_THREAD|CLONE_SIGHAND, ...}, 88) = 14",
            '12 newfstatat(AT_FDCWD, "/usr/lib/python3.11/json", ...) = 0',
        ]
    )
    assert len(forbidden_lines(log, ["/etc/passwd"])) == 5


class _NoEnvironment(MutableMapping):
    """os.environ stand-in: any use fails the test."""

    def _fail(self, *args):
        raise AssertionError(f"analysis read the environment: {args!r}")

    __getitem__ = __setitem__ = __delitem__ = _fail  # type: ignore[assignment]

    def __iter__(self) -> Iterator[str]:
        self._fail("iter")
        return iter(())

    def __len__(self) -> int:
        self._fail("len")
        return 0

    def get(self, *args):  # type: ignore[override]
        self._fail(*args)

    def __contains__(self, key) -> bool:
        self._fail(key)
        return False


def test_analysis_and_features_do_not_read_the_environment():
    # Swapped by hand, not with monkeypatch: pytest itself writes os.environ
    # between phases, so the trap is restored before the test returns.
    saved = os.environ
    os.environ = _NoEnvironment()  # type: ignore[assignment]  # noqa: B003
    try:
        _exercise_features()
    finally:
        os.environ = saved  # noqa: B003


def _exercise_features() -> None:
    source = (
        SANE_TEXT + 'use mod.tool\nuse mod.std.math\ntool.call("text.echo", {a: 1})\n'
        "math.abs(1)\nvar x = 'y'\n"
    )
    catalogs = CatalogStore()
    catalogs.apply_settings(
        {"octoscript": {"toolCatalog": [{"name": "text.echo", "format": "text"}]}}
    )
    analysis = DocumentAnalysis(source, 1)
    positions = PositionMap(source)
    uri = "file:///etc/passwd"
    diagnostics.syntax_diagnostics(analysis, positions)
    symbols.document_symbols_wire(analysis, positions)
    formatting_error = formatting.FormattingRefused
    for offset in range(0, len(source) + 1, 3):
        complete(analysis, positions, offset, catalogs)
        hover.hover(analysis, positions, offset, catalogs)
        signature.signature_help(analysis, offset, catalogs)
        navigation.definition(analysis, positions, uri, offset, catalogs)
        try:
            navigation.references(analysis, positions, uri, offset, True)
            navigation.highlights(analysis, positions, offset)
            navigation.prepare_rename(analysis, positions, offset)
            navigation.rename(analysis, positions, uri, 1, offset, "renamed")
        except navigation.Refused:
            pass
        folding.selection_ranges(analysis, positions, [offset])
        code_actions.code_actions(analysis, positions, uri, offset, offset + 5, catalogs)
    semantic_tokens.full(analysis)
    folding.folding_ranges(analysis)
    tool_calls.tool_calls_result(analysis, catalogs, uri)
    tool_calls.code_lenses(analysis, positions, catalogs)
    try:
        formatting.format_document(analysis, positions)
    except formatting_error:
        pass


WRITES = re.compile(r"\b(openat|open|creat)\(.*O_(WRONLY|RDWR|CREAT)|\b(mkdir|unlink|rename)\w*\(")


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (CI installs it)")
async def test_mcp_server_reads_only_its_named_files_connects_nowhere_writes_nothing(
    tmp_path: Path,
):
    mcp_client = pytest.importorskip("mcp")
    stdio = pytest.importorskip("mcp.client.stdio")
    folder = tmp_path / "host"
    folder.mkdir()
    tools = [{"name": "text.echo", "format": "text", "description": "Echo."}]
    named = folder / "tools.json"
    for path in (named, folder / "decoy.json", folder / "tools.json.bak"):
        path.write_text(json.dumps(tools), encoding="utf-8")
    settings = folder / "settings.json"
    settings.write_text(json.dumps({"catalogFiles": ["tools.json"]}), encoding="utf-8")
    log = tmp_path / "strace.log"
    command = strace_command(log)[: -len(SERVER_COMMAND)]
    program = [sys.executable, "-m", "octoscript_lsp.cli", "mcp", "--isolated"]
    server = stdio.StdioServerParameters(
        command=command[0],
        args=[*command[1:], *program, "--settings", str(settings)],
        cwd=str(tmp_path),
        env={"PATH": os.environ.get("PATH", ""), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    secret = uuid.uuid4().hex
    source = f'use mod.tool\nlet r = tool.call("text.ecko", "/etc/passwd {secret}")\n'
    async with mcp_client.Client(server, read_timeout_seconds=60) as client:
        await client.list_tools()
        await client.call_tool("check_script", {"source": source})
        mark = log.stat().st_size
        for name in ("check_script", "review_tool_calls", "format_script"):
            await client.call_tool(name, {"source": source})
        await client.call_tool("check_script", {"source": source, "path": "/etc/shadow"})
        await client.call_tool("search_tools", {"query": "echo"})
        await client.call_tool("describe_tools", {"ids": ["text.echo", "/etc/passwd"]})
        await client.call_tool("language_reference", {})
        named.write_text(json.dumps([*tools, {"name": "b.c", "format": "json"}]), "utf-8")
        found = await client.call_tool("search_tools", {"query": "b.c"})
        assert found.structured_content["hits"][0]["id"] == "b.c"
        await client.call_tool("catalog_status", {})
    after = log.read_text(errors="replace")[mark:]
    assert after.strip(), "strace recorded nothing after the first call"
    document_paths = ["/etc/passwd", "/etc/shadow", secret]
    # The client's own end of the session is not the server's doing.
    served = [line for line in after.splitlines() if "exit_group" not in line and "+++" not in line]
    assert forbidden_lines("\n".join(served), document_paths) == []
    assert [line for line in served if WRITES.search(line)] == []
    touched = [line for line in served if str(folder) in line]
    allowed = (f'"{named}"', f'"{settings}"')
    assert touched and all(any(path in line for path in allowed) for line in touched), touched
    assert any("openat" in line and str(named) in line for line in touched)
