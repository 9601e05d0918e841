"""End-to-end: catalogs from the files `catalogFiles` names, read again on change.

Each test starts its own server with a workspace folder in a temporary
directory, so relative paths, rewrites on disk and bad files are real.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient

from octoscript_lsp.features.catalog_files import RELOAD_COMMAND, STATUS_CHANGED
from octoscript_lsp.limits import MAX_CATALOG_FILE_BYTES
from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES

URI = "file:///workspace/files.octoscript"
ECHO = {"name": "text.echo", "format": "text", "description": "Echo."}
SHOUT = {"name": "text.shout", "format": "text", "description": "Shout."}
UNLISTED = 'use mod.tool\ntool.call("text.shout", "x")\n'
COMPLETE_TOOL = 'use mod.tool\ntool.call("")\n'
# The unlisted-tool advice waits for a pause in typing (0.3 s); the bound is 1 s.
WITHIN_SECONDS = 1.0


def watching_capabilities(experimental: dict[str, Any] | None = None) -> types.ClientCapabilities:
    workspace = attrs.evolve(
        CAPABILITIES.workspace,
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
            dynamic_registration=True, relative_pattern_support=True
        ),
    )
    return attrs.evolve(CAPABILITIES, workspace=workspace, experimental=experimental)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def fresh(lsp_client: LanguageClient):
    """A client not yet initialized: each test starts it with its own folder."""
    lsp_client.registrations = []  # type: ignore[attr-defined]
    lsp_client.statuses = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: types.UnregistrationParams) -> None:
        return None

    @lsp_client.feature(STATUS_CHANGED)
    def status_changed(params: Any) -> None:
        lsp_client.statuses.append(session.plain(params))  # type: ignore[attr-defined]

    yield lsp_client
    await lsp_client.shutdown_session()


async def start(
    client: LanguageClient,
    folder: Path,
    section: dict[str, Any],
    capabilities: types.ClientCapabilities = CAPABILITIES,
) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            initialization_options={"octoscript": section},
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(folder)), name="w")],
        )
    )


def write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value), encoding="utf-8")


async def tool_names(client: LanguageClient, uri: str = URI) -> tuple[list[str], bool]:
    session.open_document(client, COMPLETE_TOOL, uri=uri)
    answer = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=1, character=11),
        )
    )
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(answer, types.CompletionList)
    return sorted(item.label for item in answer.items), answer.is_incomplete


async def status(client: LanguageClient) -> dict[str, Any]:
    answer = await client.protocol.send_request_async("octoscript/catalogStatus", {})
    return session.plain(answer)


def watched_change(client: LanguageClient, path: Path) -> None:
    change = types.FileEvent(uri=from_fs_path(str(path)), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[change]))


async def until(check, seconds: float = WITHIN_SECONDS) -> float:
    """Seconds until `check()` (an async callable) is true; fails past the bound."""
    started = time.monotonic()
    while not await check():
        if time.monotonic() - started > seconds:
            pytest.fail(f"not within {seconds} s")
        await asyncio.sleep(0.02)
    return time.monotonic() - started


def registered(client: LanguageClient, count: int):
    async def check() -> bool:
        return len(client.registrations) >= count  # type: ignore[attr-defined]

    return check


# ------------------------------------------------------------------ forms


async def test_an_object_file_relative_to_the_workspace_folder(fresh, tmp_path: Path):
    (tmp_path / "host").mkdir()
    write_json(tmp_path / "host" / "catalog.json", {"toolCatalog": [ECHO]})
    await start(fresh, tmp_path, {"catalogFiles": ["host/catalog.json"]})
    assert await tool_names(fresh) == (["text.echo"], False)
    found = await status(fresh)
    path = str(tmp_path / "host" / "catalog.json")
    assert found["toolCatalog"]["source"] == {"kind": "file", "path": path}
    assert found["toolCatalog"]["entries"] == 1
    assert found["moduleCatalog"]["state"] == "absent"
    assert found["catalogFiles"] == [
        {"path": path, "ok": True, "reason": None, "projections": ["toolCatalog"]}
    ]


async def test_a_bare_array_is_the_hosts_tool_catalog(fresh, tmp_path: Path):
    host_entry = {
        **ECHO,
        "dispatch": "synchronous",
        "max_attempts": 1,
        "input_schema": {"type": "object"},
        "contract_enforced": False,
    }
    write_json(tmp_path / "tools.json", [host_entry, SHOUT])
    await start(fresh, tmp_path, {"catalogFiles": [str(tmp_path / "tools.json")]})
    assert await tool_names(fresh) == (["text.echo", "text.shout"], False)


async def test_settings_win_over_a_file_for_the_same_key(fresh, tmp_path: Path):
    write_json(tmp_path / "tools.json", [ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"], "toolCatalog": [SHOUT]})
    assert await tool_names(fresh) == (["text.shout"], False)
    assert (await status(fresh))["toolCatalog"]["source"] == {"kind": "settings"}


# ----------------------------------------------------------------- reload


async def _advice(client: LanguageClient) -> list[str]:
    found = client.diagnostics.get(URI, [])
    return [str(d.code) for d in found]


async def test_a_rewritten_file_is_read_again_on_a_watched_file_change(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]}, watching_capabilities())
    await until(registered(fresh, 1))
    [registration] = fresh.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    [watcher] = registration.register_options["watchers"]
    assert watcher["globPattern"] == {
        "baseUri": from_fs_path(str(tmp_path)),
        "pattern": "tools.json",
    }
    session.open_document(fresh, UNLISTED, uri=URI)

    async def unlisted() -> bool:
        return await _advice(fresh) == ["unlisted-tool"]

    await until(unlisted, seconds=WITHIN_SECONDS + 1)
    write_json(catalog, [ECHO, SHOUT])
    watched_change(fresh, catalog)

    async def listed() -> bool:
        return await _advice(fresh) == []

    await until(listed)
    assert await tool_names(fresh, URI + "#2") == (["text.echo", "text.shout"], False)


async def test_the_reload_command_reads_the_files_again(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    assert await tool_names(fresh, URI + "#1") == (["text.echo"], False)
    session.open_document(fresh, UNLISTED, uri=URI)

    async def unlisted() -> bool:
        return await _advice(fresh) == ["unlisted-tool"]

    await until(unlisted, seconds=WITHIN_SECONDS + 1)
    write_json(catalog, [SHOUT])
    assert await tool_names(fresh, URI + "#2") == (["text.echo"], False)  # not read per request
    answer = await fresh.workspace_execute_command_async(
        types.ExecuteCommandParams(command=RELOAD_COMMAND)
    )
    assert session.plain(answer)["toolCatalog"]["entries"] == 1

    async def listed() -> bool:
        return await _advice(fresh) == []

    await until(listed)
    assert await tool_names(fresh, URI + "#3") == (["text.shout"], False)


async def test_the_reload_command_is_advertised(fresh, tmp_path: Path):
    result = await fresh.initialize_session(
        types.InitializeParams(capabilities=CAPABILITIES, initialization_options=None)
    )
    assert RELOAD_COMMAND in result.capabilities.execute_command_provider.commands


async def test_a_change_to_an_unnamed_file_reads_nothing(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]}, watching_capabilities())
    assert await tool_names(fresh) == (["text.echo"], False)
    before = (await status(fresh))["toolCatalog"]["generation"]
    write_json(catalog, [SHOUT])
    watched_change(fresh, tmp_path / "other.json")
    assert await tool_names(fresh) == (["text.echo"], False)
    assert (await status(fresh))["toolCatalog"]["generation"] == before


async def test_new_settings_name_new_files_and_move_the_watchers(fresh, tmp_path: Path):
    write_json(tmp_path / "a.json", [ECHO])
    write_json(tmp_path / "b.json", [SHOUT])
    await start(fresh, tmp_path, {"catalogFiles": ["a.json"]}, watching_capabilities())
    assert await tool_names(fresh) == (["text.echo"], False)
    fresh.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"octoscript": {"catalogFiles": ["b.json"]}})
    )
    assert await tool_names(fresh) == (["text.shout"], False)
    await until(registered(fresh, 2))
    patterns = [
        r.register_options["watchers"][0]["globPattern"]["pattern"] for r in fresh.registrations
    ]
    assert patterns == ["a.json", "b.json"]


# -------------------------------------------------------------- bad files


def _fifo(folder: Path) -> str:
    path = folder / "fifo.json"
    os.mkfifo(path)
    return str(path)


def _big(folder: Path) -> str:
    path = folder / "big.json"
    padding = " " * MAX_CATALOG_FILE_BYTES
    path.write_text(json.dumps([ECHO]) + padding, encoding="utf-8")
    return str(path)


def _latin1(folder: Path) -> str:
    path = folder / "latin1.json"
    path.write_bytes(b'[{"name": "text.echo", "format": "text", "description": "caf\xe9"}]')
    return str(path)


def _write(name: str, text: str):
    def make(folder: Path) -> str:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return make


BAD_FILES = {
    "missing": (lambda folder: str(folder / "nowhere.json"), "No such file or directory"),
    "directory": (lambda folder: str(folder), "not a regular file (a directory)"),
    "fifo": (_fifo, "not a regular file (a FIFO)"),
    "device": (lambda folder: "/dev/zero", "not a regular file (a device)"),
    "oversized": (_big, f"larger than {MAX_CATALOG_FILE_BYTES} bytes"),
    "not utf-8": (_latin1, "not valid UTF-8"),
    "malformed": (_write("bad.json", '[{"name": "text.echo",]'), "not valid JSON"),
    "unknown key": (
        _write("typo.json", json.dumps({"toolCatalogs": [ECHO]})),
        'unknown key "toolCatalogs" (did you mean "toolCatalog"?)',
    ),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
async def test_a_bad_file_gives_nothing_and_says_why_once(fresh, tmp_path: Path, kind: str):
    make, reason = BAD_FILES[kind]
    path = make(tmp_path)
    await start(fresh, tmp_path, {"catalogFiles": [path]})
    assert await tool_names(fresh) == ([], False)  # absent: nothing offered, nothing claimed
    [entry] = (await status(fresh))["catalogFiles"]
    assert entry["ok"] is False and reason in entry["reason"]
    assert (await status(fresh))["toolCatalog"]["state"] == "absent"
    lines = [m.message for m in fresh.log_messages if "not read" in m.message]
    assert len(lines) == 1 and reason in lines[0]


async def test_an_invalid_catalog_in_a_file_is_discarded_whole_and_shown(fresh, tmp_path: Path):
    write_json(tmp_path / "tools.json", [ECHO, SHOUT, ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    assert await tool_names(fresh) == ([], True)
    projection = (await status(fresh))["toolCatalog"]
    assert projection["state"] == "discarded" and "duplicate" in projection["reason"]
    await asyncio.sleep(0.1)
    shown = [m.message for m in fresh.messages]
    assert len(shown) == 1
    assert "toolCatalog" in shown[0] and "tools.json" in shown[0] and "duplicate" in shown[0]


async def test_a_file_that_breaks_discards_what_it_gave(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(tmp_path / "older.json", [SHOUT])
    write_json(catalog, [ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["older.json", "tools.json"]})
    assert await tool_names(fresh) == (["text.echo"], False)
    catalog.unlink()
    await fresh.workspace_execute_command_async(types.ExecuteCommandParams(command=RELOAD_COMMAND))
    # Never the older file's catalog in its place, never a part of one.
    assert await tool_names(fresh) == ([], True)
    write_json(catalog, [ECHO, SHOUT])
    await fresh.workspace_execute_command_async(types.ExecuteCommandParams(command=RELOAD_COMMAND))
    assert await tool_names(fresh) == (["text.echo", "text.shout"], False)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
async def test_an_unreadable_file_is_refused(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO])
    catalog.chmod(0)
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    [entry] = (await status(fresh))["catalogFiles"]
    assert entry["reason"] == "Permission denied"


async def test_a_duplicate_inline_catalog_is_shown_once(fresh, tmp_path: Path):
    await start(fresh, tmp_path, {"toolCatalog": [ECHO, ECHO]})
    assert await tool_names(fresh) == ([], True)
    assert await tool_names(fresh, URI + "#2") == ([], True)
    await asyncio.sleep(0.1)
    shown = [m.message for m in fresh.messages]
    assert len(shown) == 1 and "toolCatalog from settings discarded" in shown[0]


async def test_opted_in_clients_hear_of_each_change(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO])
    capabilities = watching_capabilities({"octoscriptCatalogStatus": True})
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]}, capabilities)

    async def heard(count: int):
        async def check() -> bool:
            return len(fresh.statuses) >= count

        return check

    await until(await heard(1))
    assert fresh.statuses[0]["toolCatalog"]["entries"] == 1
    write_json(catalog, "not a catalog")
    watched_change(fresh, catalog)
    await until(await heard(2))
    assert fresh.statuses[1]["catalogFiles"][0]["ok"] is False
