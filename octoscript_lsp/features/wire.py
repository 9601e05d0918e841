"""Answers already in their JSON form.

Large answers (an outline, hundreds of completion items) are built as plain
dicts and lists marked with these types; the protocol layer then sends them
as they are instead of passing them through attrs validation and cattrs
unstructuring, which cost more than computing the answer.

Kept: at 4,090 lines sending the semantic tokens or the outline as
lsprotocol objects costs ~8 ms CPU each (`benchmarks/bench_wire.py`), the
whole per-request budget; as text, well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..limits import CACHED_DECIMAL_INTEGERS


class WireList(list):
    """A JSON-ready list answer."""


class WireDict(dict):
    """A JSON-ready object answer."""


class WireText(str):
    """An answer already serialized to JSON text, sent verbatim.

    For answers that are one long list of numbers (semantic tokens): even
    the stdlib encoder costs more per number than joining cached digit
    strings.
    """


# Decimal text of the small non-negative integers answers are made of.
_SMALL_INTEGERS = tuple(str(number) for number in range(CACHED_DECIMAL_INTEGERS))


def integer_items(numbers: Sequence[int]) -> str:
    """`numbers` (all >= 0) as the comma-separated items of a JSON array."""
    try:
        return ",".join(map(_SMALL_INTEGERS.__getitem__, numbers))
    except IndexError:  # a number past the table: the plain way
        return ",".join(map(str, numbers))


def is_wire(value: object) -> bool:
    return type(value) in _WIRE_TYPES


_WIRE_TYPES = (WireList, WireDict, WireText)
