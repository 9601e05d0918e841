"""Did-you-mean: the listed names closest to one the catalog does not list.

The distance is optimal string alignment (restricted Damerau-Levenshtein):
insertions, deletions, substitutions and swaps of two adjacent characters
each cost 1, and no substring is edited twice. A candidate is close when its
distance is at most a third of the typed name's length (rounded down), at
least 1 and at most MAX_SUGGESTION_DISTANCE. The computation only fills the
diagonal band that bound allows and stops as soon as a row exceeds it, so a
catalog of long names costs little.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..limits import MAX_SUGGESTION_DISTANCE, MAX_SUGGESTIONS


def distance_limit(typed: str) -> int:
    """How far a candidate may be from `typed` and still count as close."""
    return max(1, min(MAX_SUGGESTION_DISTANCE, len(typed) // 3))


def bounded_distance(left: str, right: str, limit: int) -> int | None:
    """The OSA distance when it is at most `limit`, else None."""
    if abs(len(left) - len(right)) > limit:
        return None
    too_far = limit + 1
    previous_row: list[int] | None = None
    row = list(range(len(right) + 1))
    for i in range(1, len(left) + 1):
        current = [too_far] * (len(right) + 1)
        current[0] = i
        low = max(1, i - limit)
        high = min(len(right), i + limit)
        for j in range(low, high + 1):
            cost = 0 if left[i - 1] == right[j - 1] else 1
            best = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if (
                previous_row is not None
                and j > 1
                and left[i - 1] == right[j - 2]
                and left[i - 2] == right[j - 1]
            ):
                best = min(best, previous_row[j - 2] + 1)
            current[j] = min(best, too_far)
        if min(current[max(0, low - 1) : high + 1]) > limit:
            return None
        previous_row, row = row, current
    return row[len(right)] if row[len(right)] <= limit else None


def closest_names(typed: str, candidates: Iterable[str]) -> list[str]:
    """At most MAX_SUGGESTIONS close candidates, nearest first, then by name."""
    limit = distance_limit(typed)
    scored: list[tuple[int, str]] = []
    for name in set(candidates):
        if name == typed:
            continue
        distance = bounded_distance(typed, name, limit)
        if distance is not None:
            scored.append((distance, name))
    scored.sort()
    return [name for _, name in scored[:MAX_SUGGESTIONS]]
