"""The wheel carries the schema and both programs; the pre-commit hooks name them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build_wheel(tmp_path: Path) -> Path:
    # A copy of what the wheel is built from, so no build/ appears in the tree.
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "octoscript_lsp",
        source / "octoscript_lsp",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    completed = subprocess.run(
        [*command, str(source), "-w", str(tmp_path / "dist")],
        capture_output=True,
        timeout=300,
        check=False,
    )
    if completed.returncode != 0 and b"setuptools" in completed.stderr:
        pytest.skip("setuptools>=77 is not installed (pip install -e '.[test]')")
    assert completed.returncode == 0, completed.stderr.decode()
    (wheel,) = (tmp_path / "dist").glob("octoscript_lsp-*.whl")
    return wheel


def test_wheel_contains_schema_cli_and_entry_points(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert "octoscript_lsp/schemas/settings.schema.json" in names
    assert {"octoscript_lsp/__main__.py", "octoscript_lsp/cli/__main__.py"} <= names
    assert "octoscript = octoscript_lsp.cli:main" in scripts
    assert "octoscript-lsp = octoscript_lsp.launch:main" in scripts
    assert not any(name.startswith("tests/") for name in names)
    # setuptools finds LICENSE by its default license-files patterns.
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)


def test_one_license_text_the_metadata_names() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == "MIT"
    assert text.startswith("MIT License\n\nCopyright (c) ")
    assert "The octoscript-lsp authors" in text.splitlines()[2]
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text
    # vsce packs the extension's own copy; it must be the same text.
    assert (ROOT / "editors" / "vscode" / "LICENSE").read_text(encoding="utf-8") == text


def test_pre_commit_hooks_run_the_installed_commands() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    hooks = dict(re.findall(r"- id: (\S+)\n(?:  .*\n)*?  entry: (.+)\n", text))
    assert hooks == {
        "octoscript-check": "octoscript check --force-exclude",
        "octoscript-format": "octoscript format --force-exclude",
    }
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert {entry.split()[0] for entry in hooks.values()} <= set(scripts)
    assert text.count(r"files: '\.(octoscript|octo)$'") == 2
