"""Seeded differential runs of the runtime-parser findings; longer runs:
`python benchmarks/fuzz_vm_compat.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

from .vm_differential import check_random_edits, check_random_program, check_typing


@pytest.mark.parametrize("seed", range(0, 400, 4))
def test_random_programs_report_the_full_walk(seed: int):
    for offset in range(4):
        check_random_program(seed + offset)


@pytest.mark.parametrize("seed", range(40))
def test_random_edit_sequences_match_fresh_analysis_and_the_full_walk(seed: int):
    check_random_edits(seed, 8)


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.octoscript")), ids=lambda path: path.name)
def test_random_edits_of_fixture_programs(path: Path):
    base = path.read_text(encoding="utf-8")
    for seed in range(3):
        check_random_edits(seed, 6, base)


@pytest.mark.parametrize("seed", range(12))
def test_typing_a_statement_and_deleting_it_matches_fresh_analysis(seed: int):
    check_typing(seed)
