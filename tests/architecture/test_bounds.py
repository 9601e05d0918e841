"""Every numeric bound the package enforces is a named constant in `limits.py`.

A bound shows in code in one of two ways: a number large enough to be a
size, a count or a budget (past SMALL: the small ones are indices, widths,
and counts of a construct's parts), or a name that says it is one (`MAX_*`,
`MIN_*`). Outside `limits.py` neither may appear. Numbers that are facts of
a format rather than choices of this server (Unicode's code space, LSP's
enumerations) are recognised by what they are, not by where they sit.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "octoscript_lsp"
LIMITS = PACKAGE / "limits.py"
SMALL = 16
BOUND_NAME = re.compile(r"_?(MAX|MIN)_[A-Z0-9_]+")

# Numbers of Unicode, UTF-8 and UTF-16, the same whatever the server's limits are.
FORMAT_FACTS = {
    0x80: "the first UTF-8 continuation byte",
    0xC0: "the first UTF-8 byte past the continuation bytes",
    0xFFFF: "the last code point of one UTF-16 unit",
    0xD800: "the first surrogate code point",
    0xDFFF: "the last surrogate code point",
    0xDC: "the high byte of the first trailing surrogate (DC00)",
    0xE0: "the high byte past the last trailing surrogate (DFFF)",
    0x10FFFF: "the last Unicode code point",
}


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != LIMITS:
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def _enumeration_values(tree: ast.Module) -> set[int]:
    """ids of the constants that are members of an Enum class (LSP's kinds)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            isinstance(base, ast.Name) and base.id.endswith("Enum") for base in node.bases
        ):
            for statement in node.body:
                if isinstance(statement, ast.Assign):
                    found.update(id(part) for part in ast.walk(statement.value))
    return found


def _past_every_offset(tree: ast.Module) -> set[int]:
    """ids of the exponents in `1 << n`: an offset past any text (a sentinel)."""
    return {
        id(node.right)
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.LShift)
        and isinstance(node.left, ast.Constant)
        and node.left.value == 1
    }


def _numbers(tree: ast.Module) -> Iterator[ast.Constant]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and type(node.value) in (int, float)
            and abs(node.value) > SMALL
        ):
            yield node


def test_no_large_number_outside_limits():
    found = []
    for path, tree in _sources():
        exempt = _enumeration_values(tree) | _past_every_offset(tree)
        for node in _numbers(tree):
            if id(node) not in exempt and node.value not in FORMAT_FACTS:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value}")
    assert found == []


def test_no_bound_named_outside_limits():
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and BOUND_NAME.fullmatch(target.id):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {target.id}")
    assert found == []


def test_the_checks_see_what_they_look_for():
    # The scanners themselves: a literal budget and a named one are found,
    # an enumeration member, a sentinel shift and a Unicode fact are not.
    tree = ast.parse(
        "class Kind(IntEnum):\n    CONSTANT = 21\n"
        "BUDGET = 4096\nOPEN_END = 1 << 62\nTOP = 0x10FFFF\n_MAX_ITEMS = 8\n"
    )
    exempt = _enumeration_values(tree) | _past_every_offset(tree)
    flagged = [
        node.value
        for node in _numbers(tree)
        if id(node) not in exempt and node.value not in FORMAT_FACTS
    ]
    assert flagged == [4096]
    assert BOUND_NAME.fullmatch("_MAX_ITEMS") and not BOUND_NAME.fullmatch("MAXIMUM")
