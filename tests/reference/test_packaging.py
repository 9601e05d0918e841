"""An installed wheel serves the same reference as the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from octoscript_lsp import reference

from ..cli.test_packaging import _build_wheel

_PRINT = (
    "import sys; from octoscript_lsp import reference; "
    "sys.stdout.write(reference.__file__ + '\\n' + reference.section('grammar') "
    "+ reference.section('scripts'))"
)


def test_the_wheel_carries_the_sources_and_serves_them(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {
        "octoscript_lsp/reference/sources/language.md",
        "octoscript_lsp/reference/sources/octoscript.ebnf",
    } <= names
    target = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target)]
        + [str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    environment = {**os.environ, "PYTHONPATH": str(target)}
    completed = subprocess.run(
        [sys.executable, "-c", _PRINT],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    location, _, served = completed.stdout.partition("\n")
    assert Path(location).is_relative_to(target)
    assert served == reference.section("grammar") + reference.section("scripts")
