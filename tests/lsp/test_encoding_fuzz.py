"""End-to-end, differential: random ranged edits in utf-8, utf-16 and utf-32
and a fresh open, over stdio, answer alike in code points
(`encoding_fuzz`; `benchmarks/fuzz_encodings.py` runs it for long)."""

from __future__ import annotations

import pytest

from tests.lsp.encoding_fuzz import BASES, Fuzz, Step, run_seed


@pytest.fixture(scope="module")
def fuzz():
    sessions = Fuzz()
    yield sessions
    sessions.stop()


@pytest.mark.parametrize("seed", range(3))
def test_random_edits_answer_alike_in_every_encoding(fuzz: Fuzz, seed: int):
    run_seed(fuzz, seed, max_steps=5)


def test_the_halves_of_a_pair_typed_apart_answer_as_the_pair(fuzz: Fuzz):
    """Each half alone (JSON can send a lone surrogate), then the other half
    beside it: the sessions that were sent them apart hold the astral character
    a fresh open of the text has, and answer alike."""
    base = BASES[0]
    string = base.index('"') + 1
    fuzz.sequence(
        base,
        [
            Step(string, string, "\ud83d", at=[string - 5], span=(0, string)),
            Step(string + 1, string + 1, "\ude00", at=[string + 10], span=(string, string + 2)),
            Step(string + 1, string + 1, "\ude00", at=[string], span=(0, 0)),
            # Between the pair and the lone low half: a high half ends the change.
            Step(string + 1, string + 1, "x\ud83d", at=[string + 4], span=(0, 0)),
            Step(string + 1, string + 1, "\ud83dz\ude00", at=[1], span=(0, 0)),
            # A deletion that brings two halves together.
            Step(string + 2, string + 3, "", at=[string + 12], span=(string, string + 4)),
        ],
        "halves",
    )
