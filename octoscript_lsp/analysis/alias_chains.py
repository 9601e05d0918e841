"""The one walk along an alias chain `let a = b`, `let b = c`, ... and its stopping rule.

Imports (`AliasGraph._chain_import`), call results (`AliasGraph.output_root`)
and record shapes (`RecordResolver._walk`) all follow a chain from a binding
until it *arrives* somewhere; they differ only in where a chain arrives and
how one step is taken. The stopping rule is the same for all of them and is
written here only:

1. a binding met twice is a cycle: the chain ends `CYCLE`;
2. a binding that arrives ends the chain `ARRIVED` there;
3. after `max_hops` steps a binding that has not arrived ends it `TOO_LONG`
   (the spec's hop limits: `MAX_ALIAS_HOPS`, `MAX_IMPORTED_MODULE_ALIAS_DEPTH`);
4. otherwise the step names the next binding, or says why the chain cannot
   go on (`STOPPED`, with the step's reason).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from .lexical import Symbol


class ChainEnd(Enum):
    ARRIVED = "arrived"
    STOPPED = "stopped"
    CYCLE = "cycle"
    TOO_LONG = "too long"


@dataclass(frozen=True, slots=True)
class Stop:
    """A step that cannot go on, and why (the caller's own value)."""

    reason: object = None


@dataclass(frozen=True, slots=True)
class ChainWalk:
    end: ChainEnd
    node: Symbol  # where the chain ended (the binding that arrived or stopped)
    reason: object = None  # a `Stop`'s reason


def walk_chain(
    start: Symbol,
    arrived: Callable[[Symbol], bool],
    step: Callable[[Symbol], Symbol | Stop],
    max_hops: int,
) -> ChainWalk:
    """Follow `step` from `start` by the one stopping rule (module docstring).

    Bindings are told apart by where they are defined."""
    current = start
    visited: set[int] = set()
    for hops in range(max_hops + 1):
        if current.start in visited:
            return ChainWalk(ChainEnd.CYCLE, current)
        visited.add(current.start)
        if arrived(current):
            return ChainWalk(ChainEnd.ARRIVED, current)
        if hops == max_hops:
            break
        following = step(current)
        if isinstance(following, Stop):
            return ChainWalk(ChainEnd.STOPPED, current, following.reason)
        current = following
    return ChainWalk(ChainEnd.TOO_LONG, current)
