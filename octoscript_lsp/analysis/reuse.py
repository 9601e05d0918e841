"""What one version of a document hands the next: the one hand-over between versions.

Each `DocumentAnalysis` owns one `Reuse`, made from the previous version's.
Every view that reuses earlier work registers under a name here instead of
being handed on field by field (and nothing reads another version's
attributes):

- every per-statement view (lexical summaries, statement facts, outline,
  formatted stretches, semantic-token statement records, rendered outline
  entries) is a per-statement memo (`syntax/statements.StatementMemo`),
  keyed by the parser's map of kept statements and advanced over this
  version's map once it is parsed, so a view computed only now and then
  still reuses what the last computation found;
- the latest earlier whole-text view (string and comment regions, the
  delimiter scan, the last semantic-token layout), as the last version
  that built it left it;
- a record the features fill in place and share from version to version
  (`shared`): only the last semantic-token answer, whose result ids count
  up per document;
- a view only the very next version may use (`hand_on_once`): the lexical
  index's by-name tables are carried over the parser's map between two
  adjacent versions only.

Dropping the analysis (the document store keeps a bounded number) drops
everything it would have handed on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..syntax.statements import StatementMemo, StepMap

T = TypeVar("T")


class Reuse:
    """The views earlier versions left for this one, and what this one leaves."""

    __slots__ = ("_earlier", "_handed", "_from_previous", "_handed_once")

    def __init__(self, previous: Reuse | None = None) -> None:
        self._earlier: dict[str, object] = dict(previous._handed) if previous is not None else {}
        self._handed: dict[str, object] = self._earlier
        self._from_previous: dict[str, object] = (
            dict(previous._handed_once) if previous is not None else {}
        )
        self._handed_once: dict[str, object] = {}

    def advance(self, kept: StepMap | None) -> None:
        """Move every per-statement memo over this version's map of kept statements."""
        self._earlier = {
            name: value.advanced(kept) if isinstance(value, StatementMemo) else value
            for name, value in self._earlier.items()
        }
        self._handed = dict(self._earlier)

    def earlier(self, name: str, default: T) -> T:
        """The view `name` as the latest earlier version that built it left it."""
        return self._earlier.get(name, default)  # type: ignore[return-value]

    def hand_on(self, name: str, value: object) -> None:
        """This version's `name`, for the versions after it."""
        self._handed[name] = value

    def left(self, name: str) -> object | None:
        """What this version leaves as `name` for the next (its own, or the earlier one)."""
        return self._handed.get(name)

    def shared(self, name: str, make: Callable[[], T]) -> T:
        """A cache filled in place and shared with the versions before and after."""
        found = self._earlier.get(name)
        if found is None:
            found = self._earlier[name] = make()
            self._handed[name] = found
        return found  # type: ignore[return-value]

    def take_once(self, name: str) -> object | None:
        """The previous version's `name`, if it handed one on (taken: asked once)."""
        return self._from_previous.pop(name, None)

    def hand_on_once(self, name: str, value: object) -> None:
        """`name` for the next version only."""
        self._handed_once[name] = value
