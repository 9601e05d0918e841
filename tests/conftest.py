"""Shared test helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVER_COMMAND = [sys.executable, "-m", "octoscript_lsp.server"]


def strip_markers(text: str) -> tuple[str, dict[str, int]]:
    """Remove `@@name@@` markers; return the text and marker -> offset."""
    out: list[str] = []
    marks: dict[str, int] = {}
    rest = text
    length = 0
    while "@@" in rest:
        before, _, after = rest.partition("@@")
        name, _, rest = after.partition("@@")
        out.append(before)
        length += len(before)
        marks[name] = length
    out.append(rest)
    return "".join(out), marks


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _load_fixture_sources() -> dict[str, str]:
    paths = sorted(FIXTURES.glob("*.octoscript")) + sorted(FIXTURES.glob("corpus/*.octoscript"))
    return {path.stem: path.read_bytes().decode("utf-8") for path in paths}


def pytest_generate_tests(metafunc):
    if "fixture_source" in metafunc.fixturenames:
        sources = _load_fixture_sources()
        metafunc.parametrize("fixture_source", list(sources.values()), ids=list(sources))


@pytest.fixture(scope="session")
def fixture_sources() -> dict[str, str]:
    return _load_fixture_sources()
