"""Every feature after random edits equals a fresh open; regressions the fuzzing found."""

from __future__ import annotations

import random

from hypothesis import HealthCheck
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.documents import DocumentStore
from octoscript_lsp.features import semantic_tokens
from tests.conftest import quick_and_full
from tests.robustness.authoring_fuzz import AUTHORING_BASES, catalogs, run_random

STORE = catalogs()


def _random_edits_answer_every_feature_like_a_fresh_open(base, rng: random.Random, count):
    run_random(rng, base, count, STORE)


(
    test_random_edits_answer_every_feature_like_a_fresh_open,
    test_random_edits_answer_every_feature_like_a_fresh_open_full_count,
) = quick_and_full(
    _random_edits_answer_every_feature_like_a_fresh_open,
    st.sampled_from(AUTHORING_BASES),
    st.randoms(use_true_random=False),
    st.integers(1, 8),
    quick=20,
    full=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _carried_tokens(before: str, after: str) -> list[int]:
    texts = {"u": before}
    store = DocumentStore(texts.get)
    store.track("u", 1)
    state = store.cached("u")
    semantic_tokens.full(state.analysis)
    texts["u"] = after
    store.track("u", 2)
    state = store.cached("u")
    return semantic_tokens.full(state.analysis).data


def test_statement_text_starting_inside_a_new_block_comment_is_not_reused():
    # After the stray `}` the next statement starts at the line break; once
    # `/*` opens a comment before it, the same text `\np*/=` lexes to `=`
    # only, not to `p`: the carried roles must not be taken.
    after = "}/*\np*/="
    assert _carried_tokens("}\np*/=", after) == semantic_tokens.full(DocumentAnalysis(after)).data
    assert _carried_tokens("}\np*/=", after)[-5:] == [0, 3, 1, semantic_tokens.OPERATOR, 0]
