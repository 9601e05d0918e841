"""Random ranged edits through the document store equal a fresh open (issue 15)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck
from hypothesis import strategies as st

from tests.conftest import quick_and_full
from tests.sync.differential import BASES, Edit, random_sequence, run_sequence


def _random_edit_sequences_equal_a_fresh_open(base: str, rng: random.Random, count: int):
    run_sequence(base, random_sequence(rng, base, count))


(
    test_random_edit_sequences_equal_a_fresh_open,
    test_random_edit_sequences_equal_a_fresh_open_full_count,
) = quick_and_full(
    _random_edit_sequences_equal_a_fresh_open,
    st.sampled_from(BASES),
    st.randoms(use_true_random=False),
    st.integers(1, 20),
    quick=60,
    full=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_the_issue_examples_through_the_store():
    run_sequence("\u2028t", [Edit((0, 1), (0, 2), "")])
    run_sequence('let s = "a\u2028b"\nlet t = s\n', [Edit((1, 8), (1, 9), "u")])
    run_sequence("let a = 1\nlet b = 2\n", [Edit((0, 10), (0, 10), "2")])
    run_sequence("let a = 1\r\nlet b = 2\r\n", [Edit((0, 12), (0, 12), "2")])
    run_sequence("}\np*/=", [Edit((0, 1), (0, 1), "/*")])
    run_sequence("}/*\no*/+r", [Edit((0, 1), (0, 3), "")])
