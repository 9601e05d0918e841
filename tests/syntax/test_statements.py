"""The per-statement memo: step maps composed, carried values, the walk."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from octoscript_lsp.limits import MAX_STEP_MAP_RUNS
from octoscript_lsp.syntax.statements import (
    EMPTY_MEMO,
    StatementMemo,
    StepMap,
    carried_value,
    carried_values,
    memo_of,
    memo_replacing,
    walk_runs,
    walk_statements,
)


@st.composite
def step_maps(draw, size: int = 40) -> StepMap:
    """Ordered, non-overlapping runs over `size` steps on both sides."""
    runs = []
    old = new = 0
    while True:
        old += draw(st.integers(0, 3))
        new += draw(st.integers(0, 3))
        count = draw(st.integers(1, 6))
        if old + count > size or new + count > size or draw(st.integers(0, 9)) == 0:
            return StepMap(tuple(runs))
        runs.append((old, new, count, draw(st.integers(-5, 5))))
        old, new = old + count, new + count


def _by_step(step_map: StepMap) -> dict[int, tuple[int, int]]:
    """Each later step's earlier step and offset delta."""
    return {
        new + k: (old + k, delta) for old, new, count, delta in step_map.runs for k in range(count)
    }


@given(step_maps(), step_maps())
def test_composed_maps_send_each_step_where_both_maps_do(first, second):
    composed = first.then(second)
    earlier, later = _by_step(first), _by_step(second)
    expected = {
        new: (earlier[middle][0], earlier[middle][1] + delta)
        for new, (middle, delta) in later.items()
        if middle in earlier
    }
    assert len(composed.runs) <= MAX_STEP_MAP_RUNS
    found = _by_step(composed)
    assert found.items() <= expected.items()
    if len(composed.runs) < MAX_STEP_MAP_RUNS:
        assert found == expected
    news = [run[1] for run in composed.runs]
    assert news == sorted(news)


def test_carried_values_follow_the_runs_and_the_walk_hands_on_its_own():
    memo = StatementMemo([(offset, f"v{offset}") for offset in range(5)], StepMap(((1, 0, 3, 7),)))
    assert carried_values(memo, 4) == ["v1", "v2", "v3", None]
    assert carried_values(EMPTY_MEMO, 2) == [None, None]
    seen = []

    def visit(position: int, first: int, after: int, carried: str | None) -> str:
        seen.append((position, first, after, carried))
        return carried or "fresh"

    units = [(0, 2, 0, 0, 1), (2, 5, 0, 0, 2), (5, 6, 0, 0, 3), (6, 8, 0, 0, 3)]
    walked = walk_statements(units, [0, 10, 20, 30], memo, visit)
    assert seen == [(0, 0, 2, "v1"), (1, 2, 5, "v2"), (2, 5, 6, "v3"), (3, 6, 8, None)]
    assert walked.found == [(0, "v1"), (10, "v2"), (20, "v3"), (30, "fresh")]
    assert carried_values(walked, 4) == ["v1", "v2", "v3", "fresh"]
    assert memo_of([3, 4], ["a", None]).found == [(3, "a"), (4, None)]


@given(step_maps(size=12), st.integers(0, 12))
def test_walk_runs_hands_each_run_over_in_its_turn(since, visited_per_run):
    """`walk_runs` visits the steps outside the runs in order, hands each run
    to `take_run` in its turn with the carried values, and the memo holds
    the visits' values and the carried ones of the steps not visited."""
    memo = StatementMemo([(offset, f"old{offset}") for offset in range(12)], since)
    units = [(2 * position, 2 * position + 2, 0, 0, position) for position in range(12)]
    order: list[object] = []

    def visit(position: int, first: int, after: int, carried: str | None) -> str:
        assert (first, after) == (2 * position, 2 * position + 2)
        order.append(position)
        return f"new{position}"

    def take_run(low: int, high: int, values: list, step) -> None:
        order.append(("run", low, high))
        assert values[low:high] == carried_values(memo, 12)[low:high]
        for position in range(low, min(high, low + visited_per_run)):
            step(position)

    walked = walk_runs(units, list(range(0, 120, 10)), memo, visit, take_run)
    expected_order: list[object] = []
    expected = carried_values(memo, 12)
    position = 0
    for _, new_first, count, _ in since.runs:
        expected_order += range(position, new_first)
        expected_order.append(("run", new_first, new_first + count))
        expected_order += range(new_first, min(new_first + count, new_first + visited_per_run))
        position = new_first + count
    expected_order += range(position, 12)
    for step in expected_order:
        if isinstance(step, int):
            expected[step] = f"new{step}"
    assert order == expected_order
    assert carried_values(walked.advanced(StepMap(((0, 0, 12, 0),))), 12) == expected


@given(step_maps(), st.sets(st.integers(0, 39), max_size=6), st.integers(0, 4))
def test_a_memo_replacing_steps_carries_what_the_full_rebuild_does(since, steps, rounds):
    """`carried_value` and `memo_replacing` agree with `carried_values` and
    `memo_of`, including over several versions replacing steps in turn."""
    offsets = [10 * position for position in range(40)]
    memo = StatementMemo([(offset, f"old{offset}") for offset in range(40)], since)
    expected = carried_values(memo, 40)
    for round_number in range(rounds + 1):
        assert [carried_value(memo, position) for position in range(40)] == expected
        replaced = {position: f"new{round_number}.{position}" for position in sorted(steps)}
        memo = memo_replacing(memo, offsets, replaced)
        for position, value in replaced.items():
            expected[position] = value
        assert carried_values(memo, 40) == expected
        assert len(memo.since.runs) <= MAX_STEP_MAP_RUNS
        assert len(memo.found) <= 2 * 40
        # A new value sits at its step's offset in this version.
        placed = {
            new + k: memo.found[old + k][0] + delta
            for old, new, count, delta in memo.since.runs
            for k in range(count)
        }
        assert all(placed[position] == offsets[position] for position in replaced)
        # The next version keeps every step, moved by one offset from step 20 on.
        memo = memo.advanced(StepMap(((0, 0, 20, 0), (20, 20, 20, 1))))
        steps = {(position * 7 + round_number) % 40 for position in steps}
