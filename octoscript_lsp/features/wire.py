"""Answers already in their JSON form.

Large answers (an outline, hundreds of completion items) are built as plain
dicts and lists marked with these types; the protocol layer then sends them
as they are instead of passing them through attrs validation and cattrs
unstructuring, which cost more than computing the answer.
"""

from __future__ import annotations


class WireList(list):
    """A JSON-ready list answer."""


class WireDict(dict):
    """A JSON-ready object answer."""


def is_wire(value: object) -> bool:
    return type(value) is WireList or type(value) is WireDict
