"""The one alias-chain walk and its stopping rule (`analysis/aliases.py`)."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis.aliases import ChainEnd, Stop, walk_chain
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.lexical import Symbol
from octoscript_lsp.analysis.records import RecordResolver
from octoscript_lsp.limits import MAX_ALIAS_HOPS
from octoscript_lsp.syntax.tree import SymbolKind


def _symbol(start: int) -> Symbol:
    return Symbol(SymbolKind.LET, f"b{start}", start, start + 1, start)


def _line(length: int, arrive_at: int | None = None, cycle_to: int | None = None):
    """Bindings 0..length-1, each stepping to the next; the last stops or cycles."""
    symbols = [_symbol(index) for index in range(length)]

    def step(symbol: Symbol) -> Symbol | Stop:
        following = symbol.start + 1
        if following < length:
            return symbols[following]
        return symbols[cycle_to] if cycle_to is not None else Stop("end")

    def arrived(symbol: Symbol) -> bool:
        return symbol.start == arrive_at

    return symbols[0], arrived, step


def test_arrives():
    start, arrived, step = _line(5, arrive_at=3)
    walk = walk_chain(start, arrived, step, MAX_ALIAS_HOPS)
    assert (walk.end, walk.node.start) == (ChainEnd.ARRIVED, 3)


def test_stops_with_the_step_reason():
    start, arrived, step = _line(4)
    walk = walk_chain(start, arrived, step, MAX_ALIAS_HOPS)
    assert (walk.end, walk.node.start, walk.reason) == (ChainEnd.STOPPED, 3, "end")


def test_a_cycle_ends_the_walk():
    start, arrived, step = _line(4, cycle_to=1)
    walk = walk_chain(start, arrived, step, MAX_ALIAS_HOPS)
    assert (walk.end, walk.node.start) == (ChainEnd.CYCLE, 1)


@pytest.mark.parametrize("hops", [1, 2, 16])
def test_the_hop_limit(hops: int):
    """A chain may take `max_hops` steps and arrive at the binding it reaches;
    one binding further is too long, and the step past the limit is not taken."""
    start, arrived, step = _line(hops + 2, arrive_at=hops)
    assert walk_chain(start, arrived, step, hops).end is ChainEnd.ARRIVED
    start, arrived, step = _line(hops + 2, arrive_at=hops + 1)
    taken: list[int] = []

    def counting(symbol: Symbol) -> Symbol | Stop:
        taken.append(symbol.start)
        return step(symbol)

    walk = walk_chain(start, arrived, counting, hops)
    assert (walk.end, walk.node.start) == (ChainEnd.TOO_LONG, hops)
    assert len(taken) == hops


def _chain(length: int, root: str) -> str:
    lines = [root]
    lines += [f"let a{index + 1} = a{index}" for index in range(length)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("length", [MAX_ALIAS_HOPS, MAX_ALIAS_HOPS + 1])
def test_the_three_walks_share_the_hop_limit(length: int):
    """Imports, call results and record shapes all reach 16 hops and no further."""
    within = length <= MAX_ALIAS_HOPS
    use = DocumentAnalysis(_chain(length, "use mod.a0"))
    last = next(s for s in use.completion_index.symbols if s.name == f"a{length}")
    imports = {item.binding_start for item in use.imports.imports}
    assert (use.aliases.import_binding_for(last, imports) is not None) is within

    record = DocumentAnalysis(_chain(length, "let a0 = { x: 1 }"))
    last = next(s for s in record.completion_index.symbols if s.name == f"a{length}")
    view = RecordResolver(record.source, record.records, record.aliases).view_for(last)
    assert (view.state == "found") is within

    call = DocumentAnalysis(_chain(length, "let a0 = m.f(1)"))
    last = next(s for s in call.completion_index.symbols if s.name == f"a{length}")
    root = call.aliases.output_root(last)
    assert (root is not None and root.name == "a0") is within
