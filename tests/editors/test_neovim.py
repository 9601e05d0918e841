"""End-to-end check of the Neovim integration in editors/neovim.

One headless Neovim run (``nvim --headless --clean -u nvim_e2e_init.lua``)
loads the plugin, opens a temporary ``.octoscript`` file, talks to the real
``octoscript-lsp`` installed next to the running interpreter and writes what it
observed as JSON. The test functions below each judge one part of that run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLUGIN_DIR = REPO / "editors" / "neovim"
INIT_LUA = Path(__file__).resolve().parent / "nvim_e2e_init.lua"
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(
    NVIM is None, reason="nvim is not on PATH (install it, e.g. `apt-get install -y neovim`)"
)

SOURCE = """use mod.tool
let greeting = "hi"
let out = tool.call("")
"""


def _server_command() -> Path:
    bindir = Path(sys.executable).parent
    for name in ("octoscript-lsp", "octoscript-lsp.exe"):
        candidate = bindir / name
        if candidate.exists():
            return candidate
    return bindir / "octoscript-lsp"


def _tail(path: str | None, limit: int = 4000) -> str:
    if not path:
        return ""
    try:
        return Path(path).read_text(errors="replace")[-limit:]
    except OSError:
        return ""


@pytest.fixture(scope="module")
def nvim_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    work = tmp_path_factory.mktemp("nvim")
    source = work / "sample.octoscript"
    source.write_text(SOURCE)
    result_path = work / "result.json"
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        directory = work / var.lower()
        directory.mkdir()
        env[var] = str(directory)
    env.update(
        OCTOSCRIPT_NVIM_PLUGIN=str(PLUGIN_DIR),
        OCTOSCRIPT_LSP_CMD=str(_server_command()),
        OCTOSCRIPT_TEST_RESULT=str(result_path),
    )
    completed = subprocess.run(
        [NVIM, "--headless", "--clean", "-u", str(INIT_LUA), str(source)],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if not result_path.exists():
        pytest.fail(
            "headless Neovim wrote no result file\n"
            f"exit code {completed.returncode}\nstdout:\n{completed.stdout[-4000:]}\n"
            f"stderr:\n{completed.stderr[-4000:]}"
        )
    results = json.loads(result_path.read_text())
    results["_diagnostics"] = (
        f"server command: {_server_command()}\nerrors: {results.get('errors')}\n"
        f"nvim stderr:\n{completed.stderr[-2000:]}\n"
        f"lsp.log tail:\n{_tail(results.get('log_path'))}"
    )
    return results


def test_filetype_and_client_attach(nvim_run: dict) -> None:
    assert nvim_run["filetype"] == "octoscript", nvim_run["_diagnostics"]
    assert nvim_run.get("attached") is True, nvim_run["_diagnostics"]
    assert "octoscript" in nvim_run.get("client_names", []), nvim_run["_diagnostics"]


def test_diagnostic_after_invalid_edit(nvim_run: dict) -> None:
    assert nvim_run.get("attached") is True, nvim_run["_diagnostics"]
    assert nvim_run.get("initial_diagnostics") == 0, nvim_run["_diagnostics"]
    diagnostics = nvim_run.get("diagnostics_after_edit") or []
    assert diagnostics, nvim_run["_diagnostics"]
    # The appended `let = ` is the last line (index 3) of the edited buffer.
    assert any(d.get("lnum") == 3 for d in diagnostics), diagnostics


def test_tool_name_completion(nvim_run: dict) -> None:
    labels = nvim_run.get("completion_labels")
    assert labels is not None, nvim_run["_diagnostics"]
    assert "text.echo" in labels, labels


def test_hover_on_let_binding(nvim_run: dict) -> None:
    hover = nvim_run.get("hover")
    assert isinstance(hover, str) and hover.strip(), nvim_run["_diagnostics"]
