"""Hostile catalog files through a real server session (review of issue 24).

Every kind of file a user (or a mistake) could name: huge, deeply nested,
binary, a FIFO, a device, a symlink to a FIFO, a symlink loop, the server's
own stdin, and a file replaced by a directory between reloads. Each reload
must answer promptly (nothing blocks on a FIFO or streams from a device),
the server must keep serving, and a projection is never a part of a catalog.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lsprotocol import types

from octoscript_lsp.features.catalog_files import RELOAD_COMMAND
from octoscript_lsp.limits import MAX_CATALOG_FILE_BYTES
from tests.lsp import test_catalog_files as base
from tests.lsp.test_catalog_files import ECHO, SHOUT, start, status, tool_names, write_json

# The other module's client fixture: a server not yet initialized.
fresh = base.fresh

# A reload of every hostile file at once must answer well within this.
ANSWER_SECONDS = 5.0


async def reload(client) -> dict:
    answer = await asyncio.wait_for(
        client.workspace_execute_command_async(types.ExecuteCommandParams(command=RELOAD_COMMAND)),
        ANSWER_SECONDS,
    )
    assert isinstance(answer, dict)
    return answer


def hostile_files(folder: Path) -> dict[str, str]:
    """name -> a part of the reason the status must give; the files are made in `folder`."""
    (folder / "huge.json").write_bytes(b"[" + b" " * MAX_CATALOG_FILE_BYTES + b"]")
    (folder / "deep.json").write_bytes(b"[" * 400_000 + b"]" * 400_000)
    (folder / "binary.json").write_bytes(bytes(range(256)) * 64)
    (folder / "nul.json").write_bytes(b'[{"name": "a\x00", "format": "text"}]')
    os.mkfifo(folder / "fifo.json")
    (folder / "to-fifo.json").symlink_to(folder / "fifo.json")
    (folder / "loop.json").symlink_to(folder / "loop.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    return {
        "huge.json": f"larger than {MAX_CATALOG_FILE_BYTES} bytes",
        "deep.json": "nested too deeply",
        "binary.json": "not valid UTF-8",
        "nul.json": "not valid JSON",
        "fifo.json": "a FIFO",
        "to-fifo.json": "a FIFO",
        "loop.json": "symbolic links",
        "zero.json": "a device",
        "/dev/zero": "a device",
        "/proc/self/fd/0": "a FIFO",  # the server's own stdin, a pipe
    }


async def test_hostile_files_are_refused_promptly_and_the_server_keeps_serving(
    fresh, tmp_path: Path
):
    expected = hostile_files(tmp_path)
    write_json(tmp_path / "good.json", [ECHO])
    # The good file first: a file that was never read gives nothing, so it stays.
    names = ["good.json", *expected]
    await start(fresh, tmp_path, {"catalogFiles": names})
    answer = await reload(fresh)
    by_path = {entry["path"]: entry for entry in answer["catalogFiles"]}
    for name, reason in expected.items():
        entry = by_path[name if name.startswith("/") else str(tmp_path / name)]
        assert entry["ok"] is False and reason in entry["reason"], (name, entry)
        assert entry["projections"] == []
    assert by_path[str(tmp_path / "good.json")]["ok"] is True
    assert answer["toolCatalog"]["state"] == "valid"
    assert await tool_names(fresh) == (["text.echo"], False)
    # Again: nothing changed, so nothing new is said and nothing blocks.
    again = await reload(fresh)
    assert again["toolCatalog"]["generation"] == answer["toolCatalog"]["generation"]
    warnings = [m.message for m in fresh.log_messages if "not read" in m.message]
    assert len(warnings) == len(expected)


async def test_a_file_replaced_by_a_directory_discards_what_it_gave(fresh, tmp_path: Path):
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO, SHOUT])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    assert await tool_names(fresh) == (["text.echo", "text.shout"], False)
    catalog.unlink()
    catalog.mkdir()
    answer = await reload(fresh)
    [entry] = answer["catalogFiles"]
    assert entry["ok"] is False and "a directory" in entry["reason"]
    assert answer["toolCatalog"]["state"] == "discarded"
    assert await tool_names(fresh) == ([], True)
    catalog.rmdir()
    os.mkfifo(catalog)
    answer = await reload(fresh)
    assert "a FIFO" in answer["catalogFiles"][0]["reason"]
    assert await tool_names(fresh) == ([], True)
    catalog.unlink()
    write_json(catalog, [SHOUT])
    await reload(fresh)
    assert await tool_names(fresh) == (["text.shout"], False)


async def test_a_deep_but_parseable_file_is_judged_not_crashed_on(fresh, tmp_path: Path):
    """Nesting the JSON decoder accepts, in an ignored property, read twice."""
    depth = 700
    deep = "[" * depth + "]" * depth
    text = '[{"name": "text.echo", "format": "text", "dispatch": ' + deep + "}]"
    (tmp_path / "tools.json").write_text(text, encoding="utf-8")
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    first = await reload(fresh)
    second = await reload(fresh)
    assert first["catalogFiles"] == second["catalogFiles"]
    # Whatever the verdict, it is whole: the tool, or nothing at all.
    assert await tool_names(fresh) in ((["text.echo"], False), ([], True))
    assert (await status(fresh))["toolCatalog"]["generation"] == first["toolCatalog"]["generation"]


@pytest.mark.parametrize("digits", [5000])
async def test_a_huge_number_is_refused_with_a_true_reason(fresh, tmp_path: Path, digits: int):
    """Python's limit on an integer's digits is named as such, not as nesting."""
    (tmp_path / "tools.json").write_text("[" + "9" * digits + "]", encoding="utf-8")
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    [entry] = (await reload(fresh))["catalogFiles"]
    assert entry["ok"] is False
    assert entry["reason"] == "not valid JSON: a number has too many digits"


async def test_a_file_not_read_is_logged_not_shown(fresh, tmp_path: Path):
    """docs/catalogs.md: a bad file is told in a `window/logMessage`; only a
    projection discarded *for its content* gets `window/showMessage`; the
    issue: a bad file is "nothing worse than a status warning" in VS Code.
    A host regenerating its catalog (delete, then write) must not pop a warning."""
    catalog = tmp_path / "tools.json"
    write_json(catalog, [ECHO])
    await start(fresh, tmp_path, {"catalogFiles": ["tools.json"]})
    assert await tool_names(fresh) == (["text.echo"], False)
    catalog.unlink()
    await reload(fresh)
    await asyncio.sleep(0.1)
    logged = [m.message for m in fresh.log_messages if "not read" in m.message]
    assert len(logged) >= 1
    assert [m.message for m in fresh.messages] == []
