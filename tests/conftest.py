"""Shared test helpers, and the markers that keep `pytest` quick.

`pytest` (pyproject's addopts) runs every test but those marked

- `slow`: long random and differential runs, at their full example counts;
- `editors`: tests that drive a real editor (Neovim, Emacs, the packaged
  VS Code extension).

`.ci/run` runs `pytest`, then `pytest -m "slow or editors"`: CI runs
everything. `pytest -m slow`, `pytest -m editors` or `pytest -m ""` (all)
run them by hand.

A property test that is slow at its full count keeps a few examples in the
default run: write its body once and make both tests with `quick_and_full`,
which marks the full one `slow`. A regression example (`@example`) goes to
both. A test that is slow whatever its size gets `@pytest.mark.slow`; a
module of real-editor tests `pytestmark = pytest.mark.editors`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis.strategies import SearchStrategy

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


def quick_and_full(
    body: Callable[..., None],
    *strategies: SearchStrategy,
    quick: int,
    full: int,
    examples: Sequence[tuple] = (),
    **options: Any,
) -> tuple[Callable[..., None], Callable[..., None]]:
    """Two hypothesis tests of `body` over `strategies`: `quick` examples for
    the default run and `full` ones marked `slow`; `examples` are `@example`
    arguments both run. Of `options`, strategies are `given`'s by keyword,
    the rest `settings`. Bind both in the module:

        test_x, test_x_full_count = quick_and_full(_x, st.integers(), quick=10, full=200)
    """
    named = {key: value for key, value in options.items() if isinstance(value, SearchStrategy)}
    chosen = {key: value for key, value in options.items() if key not in named}

    def build(count: int) -> Callable[..., None]:
        test = given(*strategies, **named)(body)
        for arguments in examples:
            test = example(*arguments)(test)
        return settings(max_examples=count, **chosen)(test)

    return build(quick), pytest.mark.slow(build(full))
