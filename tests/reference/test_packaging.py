"""The installed package serves the same reference as the checkout: from
an editable install (how the checkout is set up) and from a wheel."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from octoscript_lsp import reference

from ..cli.test_packaging import ROOT, _build_wheel

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


def test_an_install_outside_the_checkout_serves_the_checkout_s_sources(tmp_path: Path) -> None:
    """From another directory the import goes through the installation (the
    editable one in a checkout set up as the README says), not the cwd."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
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
    if not Path(location).is_relative_to(ROOT):
        pytest.skip("octoscript_lsp is installed from elsewhere, not as an editable checkout")
    assert served == reference.section("grammar") + reference.section("scripts")
