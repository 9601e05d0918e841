"""semanticTokens/full/delta: the edit applied to the last answer gives this one.

Property tests on number lists (runs that share digits, numbers past the
digit table, empty answers), then random edit sequences on documents: each
version's delta, applied to the numbers the client holds, must equal a
fresh full answer of that version's text.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features import semantic_delta, semantic_tokens
from octoscript_lsp.features.semantic_delta import Edit, edit_between
from octoscript_lsp.features.semantic_tokens import full_items
from octoscript_lsp.features.wire import integer_items
from tests.analysis.test_incremental_snapshot import LONG, edits
from tests.conftest import quick_and_full
from tests.features.semantic_reference import reference_full
from tests.features.test_semantic_tokens import COMMENTED, OVER_BUDGET
from tests.syntax.test_incremental import BASES, apply


def text_of(numbers: list[int]) -> str:
    return ",".join(map(str, numbers))


def applied(numbers: list[int], edit: Edit | None) -> list[int]:
    if edit is None:
        return list(numbers)
    data = [int(item) for item in edit.data.split(",")] if edit.data else []
    return numbers[: edit.start] + data + numbers[edit.start + edit.delete_count :]


def apply_answer(numbers: list[int], answer: str) -> list[int]:
    """What a client holds after an answer (full or delta) to its last numbers."""
    decoded = json.loads(answer)
    if "data" in decoded:
        return decoded["data"]
    for item in sorted(decoded["edits"], key=lambda edit: -edit["start"]):
        start = item["start"]
        numbers = numbers[:start] + item.get("data", []) + numbers[start + item["deleteCount"] :]
    return numbers


# Few distinct digits, so neighbouring numbers share prefixes and suffixes.
number = st.one_of(st.integers(0, 12), st.sampled_from([1, 11, 111, 21, 4095, 4096, 40960]))
numbers = st.lists(number, max_size=40)


@given(numbers, numbers)
def test_the_edit_turns_any_list_into_any_other(before: list[int], after: list[int]):
    edit = edit_between(text_of(before), text_of(after))
    assert applied(before, edit) == after
    assert (edit is None) == (before == after)


@given(numbers, st.integers(0, 40), st.integers(0, 5), st.lists(number, max_size=6))
def test_a_local_change_gives_a_local_edit(before, at, removed, inserted):
    at = min(at, len(before))
    after = before[:at] + inserted + before[at + removed :]
    edit = edit_between(text_of(before), text_of(after))
    assert applied(before, edit) == after
    if edit is not None:  # never more than the change itself
        assert edit.delete_count <= min(removed, len(before) - at)
        assert (len(edit.data.split(",")) if edit.data else 0) <= len(inserted)


def test_long_answers_compare_past_one_block():
    before = [index % 97 for index in range(20_000)]
    after = [*before[:12_345], 7, 7, *before[12_346:]]
    edit = edit_between(text_of(before), text_of(after))
    assert edit == Edit(12_345, 1, "7,7")
    assert applied(before, edit) == after


def test_a_delta_names_the_last_answer_or_gets_a_full_one():
    last, answer = semantic_delta.full(None, "0,0,3,5,0")
    assert json.loads(answer) == {"resultId": "1", "data": [0, 0, 3, 5, 0]}
    later, answer = semantic_delta.delta(last, "1", "0,0,3,5,0,1,0,2,3,0")
    assert json.loads(answer) == {
        "resultId": "2",
        "edits": [{"start": 5, "deleteCount": 0, "data": [1, 0, 2, 3, 0]}],
    }
    same, answer = semantic_delta.delta(later, "2", later.items)
    assert json.loads(answer) == {"resultId": "3", "edits": []}
    _, answer = semantic_delta.delta(same, "2", "")  # not the last one: a full answer
    assert json.loads(answer) == {"resultId": "4", "data": []}


def _deltas_over_random_edits_equal_a_fresh_full_answer(base: str, changes):
    previous = DocumentAnalysis(base, 0)
    last, answer = semantic_delta.full(None, full_items(previous))
    held = apply_answer([], answer)
    text = base
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        last, answer = semantic_delta.delta(last, last.result_id, full_items(current))
        held = apply_answer(held, answer)
        assert held == reference_full(DocumentAnalysis(text)).data
        previous = current


(
    test_deltas_over_random_edits_equal_a_fresh_full_answer,
    test_deltas_over_random_edits_equal_a_fresh_full_answer_full_count,
) = quick_and_full(
    _deltas_over_random_edits_equal_a_fresh_full_answer,
    st.sampled_from([*BASES, LONG, COMMENTED, OVER_BUDGET]),
    edits,
    quick=10,
    full=80,
    # Text typed at the very end, after an unclosed `{`, extends the last statement.
    examples=[
        (
            "\tlet value = [1]\n",
            [(1.0, 0, "{"), (1.0, 0, "let ")],
        )
    ],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# Edits made of line ends (a lone CR, CRLF, LF) and block-comment marks, on
# texts whose lines end each way: statements commented out and back in, lines
# joined and split by a CR, between versions asked for tokens or not.
LINE_END_AND_COMMENT_EDITS = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=3),
        st.lists(
            st.sampled_from(["\r", "\r\n", "\n", "/*", "*/", " ", "x", "let y = 1"]),
            min_size=1,
            max_size=3,
        ).map("".join),
        st.booleans(),
    ),
    min_size=1,
    max_size=8,
)
_ENDED = "let a = 1\nfn f(p) {\n    return p + a\n}\n/* note */\nlet b = f(a)\nlet c = [b, 2]\n"
LINE_END_BASES = [_ENDED, _ENDED.replace("\n", "\r\n"), _ENDED.replace("\n", "\r"), COMMENTED]


def _deltas_over_line_end_and_comment_edits_equal_a_fresh_answer(base: str, changes):
    previous = DocumentAnalysis(base, 0)
    last, answer = semantic_delta.full(None, full_items(previous))
    held = apply_answer([], answer)
    text = base
    for version, (where, removed, inserted, asked) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        if asked:
            last, answer = semantic_delta.delta(last, last.result_id, full_items(current))
            held = apply_answer(held, answer)
            assert held == reference_full(DocumentAnalysis(text)).data
        previous = current


(
    test_deltas_over_line_end_and_comment_edits_equal_a_fresh_answer,
    test_deltas_over_line_end_and_comment_edits_equal_a_fresh_answer_full_count,
) = quick_and_full(
    _deltas_over_line_end_and_comment_edits_equal_a_fresh_answer,
    st.sampled_from(LINE_END_BASES),
    LINE_END_AND_COMMENT_EDITS,
    quick=40,
    full=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_a_keystroke_inside_a_statement_renders_only_that_statement_again():
    """Every other statement's items are the very ones of the version before
    (past the occurrence budget, the statement where it ran out is made
    again too); the answer equals a fresh one, typing and deleting."""
    for base, needle in ((LONG, "(v"), (OVER_BUDGET, "math.p")):
        previous = DocumentAnalysis(base, 0)
        before = list(semantic_tokens._walk(previous))
        at = base.index(needle, len(base) // 2) + len(needle)  # inside a name it reads
        text = base
        for version, edit in enumerate(["1", "", "7", ""], start=1):
            text = text[:at] + edit + text[at + (0 if edit else 1) :]
            current = DocumentAnalysis(text, version, previous)
            assert full_items(current) == integer_items(reference_full(DocumentAnalysis(text)).data)
            after = list(semantic_tokens._walk(current))
            assert len(after) == len(before)
            again = [new for old, new in zip(before, after, strict=True) if old[2] is not new[2]]
            assert 1 <= len(again) <= (1 if current.completion_index.cut is None else 2)
            before, previous = after, current
