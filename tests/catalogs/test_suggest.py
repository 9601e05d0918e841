"""Did-you-mean distance and selection."""

from __future__ import annotations

import random

import pytest

from octoscript_lsp.catalogs.suggest import bounded_distance, closest_names, distance_limit


def osa(left: str, right: str) -> int:
    """Unbanded optimal-string-alignment distance, the specification."""
    rows = [[0] * (len(right) + 1) for _ in range(len(left) + 1)]
    for i in range(len(left) + 1):
        rows[i][0] = i
    for j in range(len(right) + 1):
        rows[0][j] = j
    for i in range(1, len(left) + 1):
        for j in range(1, len(right) + 1):
            cost = 0 if left[i - 1] == right[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and left[i - 1] == right[j - 2] and left[i - 2] == right[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("text.ecko", "text.echo", 1),
        ("curent", "current", 1),
        ("lcoation", "location", 1),
        ("kitten", "sitting", 3),
        ("ca", "abc", 3),
        ("", "ab", 2),
    ],
)
def test_known_distances(left: str, right: str, expected: int):
    assert bounded_distance(left, right, 3) == expected
    assert bounded_distance(left, right, expected - 1) is None


def test_banded_distance_agrees_with_the_full_table():
    rng = random.Random(18)
    for _ in range(3_000):
        left = "".join(rng.choice("abc.") for _ in range(rng.randint(0, 9)))
        right = "".join(rng.choice("abc.") for _ in range(rng.randint(0, 9)))
        limit = rng.randint(1, 3)
        exact = osa(left, right)
        assert bounded_distance(left, right, limit) == (exact if exact <= limit else None)


def test_limit_grows_with_length_between_one_and_three():
    assert [distance_limit("x" * n) for n in (1, 3, 5, 6, 9, 40)] == [1, 1, 1, 2, 3, 3]


def test_closest_names_nearest_first_then_by_name_at_most_three():
    candidates = ["text.echo", "text.ech", "text.eck", "text.ecky", "svc.lookup"]
    # distance 1: echo, eck, ecky; text.ech (2) is fourth and left out
    assert closest_names("text.ecko", candidates) == ["text.echo", "text.eck", "text.ecky"]


def test_nothing_close_gives_nothing_and_exact_names_are_skipped():
    assert closest_names("weather", ["svc.lookup", "text.echo"]) == []
    assert closest_names("units", ["units"]) == []
    assert closest_names("ab", ["xy"]) == []
