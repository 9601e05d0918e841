"""Corpus tests and generated-source freshness, through the tree-sitter CLI.

The CLI (0.20.8, ABI 14) lives beside the repository in the development
workspace (../shared/tools/tree-sitter); set OCTOSCRIPT_TREE_SITTER_CLI to
use another copy. Without it these tests skip; the compile-and-parse tests
in this directory need only a C compiler.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .treesitter import GRAMMAR_DIR, TREE_SITTER_CLI, c_compiler

GENERATED = ("src/parser.c", "src/grammar.json", "src/node-types.json", "src/tree_sitter/parser.h")


def _cli() -> Path | None:
    configured = os.environ.get("OCTOSCRIPT_TREE_SITTER_CLI")
    candidate = Path(configured) if configured else TREE_SITTER_CLI
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None


CLI = _cli()
needs_cli = pytest.mark.skipif(
    CLI is None,
    reason=f"tree-sitter CLI not found at {TREE_SITTER_CLI} (set OCTOSCRIPT_TREE_SITTER_CLI)",
)


def _run(arguments: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    # A private HOME keeps the CLI's compiled-parser cache out of the user's.
    environment = {**os.environ, "HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [str(CLI), *arguments],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


@needs_cli
def test_corpus(tmp_path: Path) -> None:
    if c_compiler() is None:
        pytest.skip("`tree-sitter test` needs a C compiler")
    completed = _run(["test"], GRAMMAR_DIR, tmp_path)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert output.count("✓") >= 30, output
    assert "✗" not in output, output


@needs_cli
def test_generated_sources_are_up_to_date(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("`tree-sitter generate` needs node")
    copy = tmp_path / "grammar"
    copy.mkdir()
    shutil.copy(GRAMMAR_DIR / "grammar.js", copy / "grammar.js")
    completed = _run(["generate", "--no-bindings"], copy, tmp_path)
    assert completed.returncode == 0, completed.stderr
    for name in GENERATED:
        assert filecmp.cmp(copy / name, GRAMMAR_DIR / name, shallow=False), (
            f"{name} is stale: run `tree-sitter generate` in grammar/tree-sitter-octoscript"
        )
