"""Seeded random Octoscript programs for differential tests of the syntax layer.

The generator leans towards the constructs the runtime-parser rules
(`syntax/vm_compat`) look at: lambdas with block and expression bodies and
what follows them, assignments used as conditions, `if`/`elif`/`while`/`for`
conditions nested in lambdas, records, calls and try branches. Most programs
are canonically valid; the tests skip the few that are not, since the rules
only run on valid source.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

NAMES = ("a", "x", "g", "p", "q", "tool")
BINARY_OPERATORS = ("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||")
ASSIGNMENT_OPERATORS = ("=", "+=", "-=", "*=", "/=", "%=")
# Declares every name the generated statements use.
PRELUDE = "use mod.tool\nlet a = {b: [1]}\nlet x = 1\nlet g = |p| p\n"
# Between top-level statements: steps end at a newline or `;`, and comments
# and blank lines move the steps after them.
SEPARATORS = ("\n", "\n", "\n\n", "; ", ";\n", "\n// note\n", " /* note */\n", "\r\n")


@dataclass
class ProgramGenerator:
    """Random statements and expressions, bounded by `depth`."""

    rng: random.Random
    depth: int = 4

    def program(self, statements: int) -> str:
        separator = self.rng.choice(SEPARATORS)
        body = separator.join(self.statement(self.depth, 0, False) for _ in range(statements))
        return PRELUDE + body + "\n"

    def top_level_statement(self) -> str:
        return self.statement(self.depth, 0, False)

    # ------------------------------------------------------------ statements

    def statement(self, depth: int, indent: int, in_loop: bool) -> str:
        rng = self.rng
        choice = rng.randrange(12)
        if depth <= 0 or choice == 0:
            return self.simple_statement(depth, in_loop)
        if choice == 1:
            return f"let {rng.choice(NAMES)} = {self.expression(depth - 1)}"
        if choice == 2:
            params = ", ".join(rng.sample(("p", "q", "r"), rng.randrange(3)))
            return f"fn f{rng.randrange(4)}({params}) {self.block(depth - 1, indent, False)}"
        if choice == 3:
            return self.if_expression(depth - 1, indent, in_loop)
        if choice == 4:
            return f"while {self.condition(depth - 1)} {self.block(depth - 1, indent, True)}"
        if choice == 5:
            bindings = ", ".join(rng.sample(("i", "j", "k"), rng.randrange(1, 4)))
            iterable = self.condition(depth - 1)
            return f"for {bindings} in {iterable} {self.block(depth - 1, indent, True)}"
        if choice == 6:
            return f"loop {self.block(depth - 1, indent, True)}"
        if choice == 7:
            return f"{self.target(depth - 1)} {self.assignment_operator()} {self.value(depth - 1)}"
        if choice == 8:
            return self.try_expression(depth - 1, indent)
        if choice == 9:
            return f"return {self.expression(depth - 1)}"
        return self.expression(depth - 1)

    def simple_statement(self, depth: int, in_loop: bool) -> str:
        rng = self.rng
        if in_loop and rng.random() < 0.2:
            return rng.choice(("break", "continue"))
        if rng.random() < 0.3:
            return f"{rng.choice(NAMES)} {self.assignment_operator()} {self.atom()}"
        return self.expression(min(depth, 1))

    def block(self, depth: int, indent: int, in_loop: bool) -> str:
        rng = self.rng
        if rng.random() < 0.1:
            return "{\n}"
        if rng.random() < 0.1:
            # One line: statements separated and ended by `;`.
            statements = [self.statement(depth, 0, in_loop) for _ in range(rng.randrange(1, 3))]
            if not any("\n" in statement for statement in statements):
                return "{ " + "; ".join(statements) + "; }"
        pad = "    " * (indent + 1)
        lines = [
            pad + self.statement(depth, indent + 1, in_loop) for _ in range(rng.randrange(1, 4))
        ]
        return "{\n" + "\n".join(lines) + "\n" + "    " * indent + "}"

    def if_expression(self, depth: int, indent: int, in_loop: bool) -> str:
        rng = self.rng
        text = f"if {self.condition(depth)} {self.branch(depth, indent, in_loop)}"
        for _ in range(rng.choice((0, 0, 1, 2))):
            text += f" elif {self.condition(depth)} {self.branch(depth, indent, in_loop)}"
        if rng.random() < 0.4:
            text += f" else {self.branch(depth, indent, in_loop)}"
        return text

    def branch(self, depth: int, indent: int, in_loop: bool) -> str:
        if self.rng.random() < 0.15:
            return self.atom()
        return self.block(depth, indent, in_loop)

    def try_expression(self, depth: int, indent: int) -> str:
        return f"try {self.try_branch(depth, indent)} catch {self.try_branch(depth, indent)}"

    def try_branch(self, depth: int, indent: int) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return self.expression(depth)
        pad = "    " * (indent + 1)
        lines = [pad + self.statement(depth, indent + 1, False) for _ in range(rng.randrange(2))]
        lines.append(pad + self.expression(depth))
        return "{\n" + "\n".join(lines) + "\n" + "    " * indent + "}"

    # ------------------------------------------------------------ expressions

    def condition(self, depth: int) -> str:
        """A condition or iterable, often an assignment (what the rules inspect)."""
        rng = self.rng
        choice = rng.randrange(6)
        if choice == 0:
            return f"{self.target(depth)} {self.assignment_operator()} {self.value(depth)}"
        if choice == 1:
            # Chains: `x = a.b = 1`, `a.b = x = 1`.
            return (
                f"{self.target(depth)} = {self.target(depth)} "
                f"{self.assignment_operator()} {self.operand(depth)}"
            )
        if choice == 2:
            operator = rng.choice(BINARY_OPERATORS)
            return f"{self.postfix(depth)} {operator} {self.lambda_expression(depth)}"
        if choice == 3:
            return f"({self.expression(depth)})"
        # A condition must not start with a lambda.
        return self.binary(depth, self.postfix(depth))

    def expression(self, depth: int) -> str:
        rng = self.rng
        if depth <= 0:
            return self.atom()
        choice = rng.randrange(10)
        if choice == 0:
            return self.lambda_expression(depth - 1)
        if choice == 1:
            return self.if_expression(depth - 1, 0, False)
        if choice == 2:
            return self.try_expression(depth - 1, 0)
        if choice == 3:
            return f"{self.target(depth - 1)} {self.assignment_operator()} {self.value(depth - 1)}"
        if choice == 4:
            return f"({self.expression(depth - 1)})"
        return self.binary(depth - 1)

    def value(self, depth: int) -> str:
        """An expression that can stand after an operator (no control word first)."""
        return self.binary(depth)

    def binary(self, depth: int, first: str | None = None) -> str:
        rng = self.rng
        text = self.operand(depth) if first is None else first
        for _ in range(rng.choice((0, 0, 1, 2))):
            text += f" {rng.choice(BINARY_OPERATORS)} {self.operand(depth)}"
        return text

    def operand(self, depth: int) -> str:
        rng = self.rng
        if depth <= 0:
            return self.atom()
        choice = rng.randrange(12)
        if choice == 0:
            return f"{rng.choice(('!', '-'))}{self.postfix(depth - 1)}"
        if choice == 1:
            # A block-bodied lambda, then what the VM may not continue with.
            return self.block_lambda(depth - 1) + self.suffixes(depth - 1)
        if choice == 2:
            return f"({self.expression(depth - 1)}){self.suffixes(depth - 1)}"
        if choice == 3:
            return self.lambda_expression(depth - 1)
        return self.postfix(depth - 1)

    def postfix(self, depth: int) -> str:
        suffixes = self.suffixes(depth)
        if suffixes:
            # `1.b` lexes as a malformed number.
            return self.rng.choice(NAMES) + suffixes
        return self.primary(depth)

    def suffixes(self, depth: int) -> str:
        rng = self.rng
        text = ""
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            choice = rng.randrange(3)
            if choice == 0:
                text += f".{rng.choice(('b', 'c', 'call'))}"
            elif choice == 1:
                text += f"[{self.expression(depth - 1) if depth > 0 else '0'}]"
            else:
                count = rng.randrange(3)
                text += "(" + ", ".join(self.expression(depth - 1) for _ in range(count)) + ")"
        return text

    def primary(self, depth: int) -> str:
        rng = self.rng
        if depth <= 0:
            return self.atom()
        choice = rng.randrange(8)
        if choice == 0:
            count = rng.randrange(3)
            return "[" + ", ".join(self.expression(depth - 1) for _ in range(count)) + "]"
        if choice == 1:
            keys = rng.sample(("b", "c", "d"), rng.randrange(3))
            separator = rng.choice((", ", ",\n", "\n"))
            fields = separator.join(f"{key}: {self.expression(depth - 1)}" for key in keys)
            return "{" + fields + "}" if fields else "{}"
        return self.atom()

    def atom(self) -> str:
        return self.rng.choice((*NAMES, "1", "2.5", '"s"', "true", "nil"))

    def target(self, depth: int) -> str:
        rng = self.rng
        choice = rng.randrange(6)
        if choice == 0:
            return rng.choice(NAMES)
        if choice == 1:
            return f"{self.atom()} + {self.postfix(depth)}"
        if choice == 2 and rng.random() < 0.3:
            return f"({self.block_lambda(depth)}).b"
        if choice == 2:
            return f"g.b + {self.block_lambda(depth)}.b"
        return f"{rng.choice(NAMES)}{self.suffixes(depth)}.b" if choice < 5 else f"a[{self.atom()}]"

    def assignment_operator(self) -> str:
        return self.rng.choice(ASSIGNMENT_OPERATORS)

    def lambda_expression(self, depth: int) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return self.block_lambda(depth)
        params = rng.choice(("||", "|p|", "|p, q|"))
        return f"{params} {self.expression(depth)}"

    def block_lambda(self, depth: int) -> str:
        params = self.rng.choice(("||", "|p|", "|p, q|"))
        return f"{params} {self.block(depth, 0, False)}"


# Text edits that turn one construct the runtime-parser rules inspect into
# another (or into invalid source and back).
EDIT_FRAGMENTS = (
    "\n",
    " ",
    "{",
    "}",
    "(",
    ")",
    ".b",
    "[0]",
    "=",
    " = ",
    "==",
    "+=",
    "|| ",
    "|p| ",
    "|| {\n1\n}",
    "if ",
    " elif x {\n}",
    " else {\n}",
    "while ",
    "for i in ",
    "a.b = 1",
    "try ",
    " catch nil",
    "}\n",
    ";",
)


@dataclass
class EditedProgram:
    """A program as top-level statements, edited a statement or a few characters at a time."""

    generator: ProgramGenerator
    statements: list[str]
    # Set by a character edit: the text no longer splits into `statements`.
    text: str | None = None
    separator: str = "\n"

    @property
    def source(self) -> str:
        if self.text is not None:
            return self.text
        return PRELUDE + self.separator.join(self.statements) + "\n"

    def edit(self) -> str:
        """Apply one random edit; returns the new source.

        Character edits mostly stay inside one statement, so a later
        statement edit can make the program valid again; a few span the
        whole text, after which only character edits follow.
        """
        rng = self.generator.rng
        choice = rng.randrange(10)
        if self.text is not None or choice == 0 or not self.statements:
            self.text = self._edited(self.source)
        elif choice < 4:
            position = rng.randrange(len(self.statements))
            self.statements[position] = self._edited(self.statements[position])
        elif choice < 6:
            position = rng.randrange(len(self.statements))
            self.statements[position] = self.generator.top_level_statement()
        elif choice < 8:
            position = rng.randrange(len(self.statements) + 1)
            self.statements.insert(position, self.generator.top_level_statement())
        else:
            del self.statements[rng.randrange(len(self.statements))]
        return self.source

    def _edited(self, text: str) -> str:
        rng = self.generator.rng
        where = rng.randrange(len(text) + 1)
        removed = rng.choice((0, 0, 1, 3, 8))
        inserted = "".join(rng.choice(EDIT_FRAGMENTS) for _ in range(rng.randrange(3)))
        return text[:where] + inserted + text[where + removed :]
