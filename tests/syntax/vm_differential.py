"""Differential checks of the runtime-parser findings (`syntax/vm_compat`).

`analyze_syntax` computes them per top-level step, skipping the steps the
parser marked as holding nothing the rules look at and reusing the steps an
incremental parse kept; both shortcuts must give exactly what the plain walk
over the whole tree gives, and an incremental analysis what a fresh one does.
"""

from __future__ import annotations

import random

from octoscript_lsp.limits import MAX_SYNTAX_DIAGNOSTICS
from octoscript_lsp.syntax.check import SyntaxResult, analyze_syntax
from octoscript_lsp.syntax.tokens import Token
from octoscript_lsp.syntax.tree import Node
from octoscript_lsp.syntax.vm_compat import statement_findings

from .program_generator import PRELUDE, SEPARATORS, EditedProgram, ProgramGenerator
from .test_incremental import assert_same_parse


def vm_diagnostics(tree: Node, tokens: list[Token]) -> list:
    """The plain walk: the rules over every top-level statement of the tree."""
    found: list = []
    for statement in tree.children:
        statement_findings(statement, tokens, found)
    return sorted(found, key=lambda diagnostic: diagnostic.offset)


def canonically_valid(result: SyntaxResult) -> bool:
    """Whether the runtime-parser rules run on this result."""
    lex, parsed = result.lex, result.parsed
    return not (lex.diagnostics or lex.truncated or parsed.diagnostics or parsed.truncated)


def assert_vm_is_the_full_walk(result: SyntaxResult) -> None:
    """The reported findings are the full walk's, and every step marked as
    needing no look holds none."""
    if not canonically_valid(result):
        return
    parsed, tokens = result.parsed, result.lex.tokens
    assert len(parsed.unit_runtime_checks) == len(parsed.units)
    children = parsed.tree.children
    for position, unit in enumerate(parsed.units):
        if parsed.unit_runtime_checks[position]:
            continue
        first = parsed.units[position - 1][4] if position > 0 else 0
        step = Node("program", 0, 0, children[first : unit[4]])
        assert vm_diagnostics(step, tokens) == [], result.source
    full = vm_diagnostics(parsed.tree, tokens)[:MAX_SYNTAX_DIAGNOSTICS]
    assert result.vm == full, result.source


def check_random_program(seed: int) -> None:
    generator = ProgramGenerator(random.Random(seed))
    source = generator.program(generator.rng.randrange(1, 7))
    assert_vm_is_the_full_walk(analyze_syntax(source))
    # Near the token budget and the nesting limit (valid only when within both).
    budget = generator.rng.randrange(20, 400)
    nesting = generator.rng.randrange(2, 12)
    assert_vm_is_the_full_walk(analyze_syntax(source, max_tokens=budget, max_nesting=nesting))


def check_random_edits(seed: int, count: int, base: str | None = None) -> None:
    """`count` random edits of a random program (or of `base`, by characters
    only), each analysed incrementally from the one before."""
    generator = ProgramGenerator(random.Random(seed), depth=3)
    statements = [generator.top_level_statement() for _ in range(generator.rng.randrange(1, 6))]
    separator = generator.rng.choice(SEPARATORS)
    program = EditedProgram(generator, statements, base, separator)
    previous = analyze_syntax(program.source)
    assert_vm_is_the_full_walk(previous)
    for _ in range(count):
        source = program.edit()
        incremental = analyze_syntax(source, previous=previous)
        assert_same_parse(incremental, analyze_syntax(source))
        assert_vm_is_the_full_walk(incremental)
        previous = incremental


def check_typing(seed: int) -> None:
    """Type a random statement into a random program one character at a time
    at a statement boundary, then delete it again the same way; every version
    is analysed incrementally from the one before."""
    generator = ProgramGenerator(random.Random(seed), depth=3)
    statements = [generator.top_level_statement() for _ in range(generator.rng.randrange(1, 5))]
    cut = generator.rng.randrange(len(statements) + 1)
    head = PRELUDE + "".join(statement + "\n" for statement in statements[:cut])
    tail = "".join(statement + "\n" for statement in statements[cut:])
    typed = generator.statement(2, 0, False) + "\n"  # short: one analysis per character
    versions = [typed[:length] for length in range(1, len(typed) + 1)]
    versions += versions[-2::-1] + [""]
    previous = analyze_syntax(head + tail)
    for middle in versions:
        source = head + middle + tail
        incremental = analyze_syntax(source, previous=previous)
        assert_same_parse(incremental, analyze_syntax(source))
        assert_vm_is_the_full_walk(incremental)
        previous = incremental
