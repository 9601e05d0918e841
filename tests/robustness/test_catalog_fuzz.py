"""Random module catalogs and record styles through quick fixes and prefill."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.robustness.catalog_fuzz import _snippet_default, run_catalog_case


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_fixes_and_prefill_keep_valid_source_valid(rng: random.Random):
    run_catalog_case(rng)


def test_snippet_default_takes_each_placeholder_default():
    assert _snippet_default('go({a: ${1:""}, b: ${2:{\\}}})$0') == 'go({a: "", b: {}})'
