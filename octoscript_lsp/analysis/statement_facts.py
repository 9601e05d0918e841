"""What each top-level statement declares for records, aliases and imports.

One pass over a statement's scope events finds its record shapes, its alias
edges (see `record_scan`) and its complete `use mod.a.b` imports. The facts of a
statement depend only on its text, so they are kept in the statement's
cache (`anchored_facts`); only new statements are scanned. Facts keep the
offsets of the build they were found in, with the statement's start there
(its origin): a statement that moved is shifted only when a reader asks for
its facts, so an edit that moves every later statement costs nothing here.
Budgets and the metadata prefix are applied by the readers
(`records.RecordReport`, `import_report`), which look up one statement by
offset instead of merging every statement's facts.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter
from typing import NamedTuple

from ..limits import MAX_MODULE_IMPORTS
from ..syntax.statements import Statement
from ..syntax.tokens import Token
from ..syntax.tree import IMPORT, LET_INIT
from .record_scan import (
    AliasFound,
    ShapeFound,
    direct_alias,
    direct_shape,
    shifted_alias,
    shifted_shape,
)


@dataclass(frozen=True, slots=True)
class ModuleImport:
    path: tuple[str, ...]
    path_start: int
    path_end: int
    binding_start: int
    binding_end: int


@dataclass(frozen=True, slots=True)
class ImportReport:
    imports: tuple[ModuleImport, ...]
    truncated: bool

    def for_binding(self, start: int, end: int) -> ModuleImport | None:
        found = (
            item for item in self.imports if (item.binding_start, item.binding_end) == (start, end)
        )
        return next(found, None)


@dataclass(frozen=True, slots=True)
class StatementFacts:
    """Shapes and alias edges (each with the end of its initializer) and
    imports of one statement, in parse order."""

    shapes: tuple[ShapeFound, ...]
    aliases: tuple[AliasFound, ...]
    imports: tuple[ModuleImport, ...]
    #: Fields the shapes retain, all levels (the field budget's unit).
    retained_fields: int

    def shape_at(self, binding_start: int) -> ShapeFound | None:
        return next((item for item in self.shapes if item.shape.binding[0] == binding_start), None)

    def alias_at(self, binding_start: int) -> AliasFound | None:
        return next((item for item in self.aliases if item.alias.binding[0] == binding_start), None)


NO_FACTS = StatementFacts((), (), (), 0)


class Anchored(NamedTuple):
    origin: int  # where the statement was when its facts were found
    facts: StatementFacts


# (statement offset, its anchored facts), in source order.
FactPieces = list[tuple[int, Anchored]]
_OFFSET = itemgetter(0)


def facts_of(
    tokens: Sequence[Token], events: Sequence[tuple], limit: int | None = None
) -> StatementFacts:
    """The facts of the `LET_INIT` and `IMPORT` events given.

    With `limit` (the offset where the statement's step ends) an initializer
    read to past it gives nothing: in broken text a record literal's `}` can
    lie in a later statement, and a fact must depend only on its own
    statement's text to be reused while that statement is kept.
    """
    shapes: list[ShapeFound] = []
    aliases: list[AliasFound] = []
    imports: list[ModuleImport] = []
    retained = 0
    for event in events:
        tag = event[0]
        if tag == LET_INIT:
            shape = direct_shape(tokens, event[1], event[2])
            if shape is not None and (limit is None or shape.end <= limit):
                shapes.append(shape)
                retained += shape.shape.retained_field_count()
            alias = direct_alias(tokens, event[1], event[2])
            if alias is not None and (limit is None or alias.end <= limit):
                aliases.append(alias)
        elif tag == IMPORT:
            _, path, path_start, path_end, binding = event
            token = tokens[binding]
            imports.append(ModuleImport(path, path_start, path_end, token.start, token.end))
    if not shapes and not aliases and not imports:
        return NO_FACTS
    return StatementFacts(tuple(shapes), tuple(aliases), tuple(imports), retained)


def shifted_facts(facts: StatementFacts, delta: int) -> StatementFacts:
    if facts is NO_FACTS:
        return facts
    return StatementFacts(
        tuple(ShapeFound(shifted_shape(shape, delta), end + delta) for shape, end in facts.shapes),
        tuple(AliasFound(shifted_alias(alias, delta), end + delta) for alias, end in facts.aliases),
        tuple(_shifted_import(item, delta) for item in facts.imports),
        facts.retained_fields,
    )


def _shifted_import(item: ModuleImport, delta: int) -> ModuleImport:
    return ModuleImport(
        item.path,
        item.path_start + delta,
        item.path_end + delta,
        item.binding_start + delta,
        item.binding_end + delta,
    )


STATEMENT_FACTS = "statement facts"


def anchored_facts(statement: Statement) -> Anchored:
    """A statement's facts where its build found them (`Statement.view`)."""
    limit = statement.tokens[statement.after].start
    return Anchored(statement.origin, facts_of(statement.tokens, statement.events, limit))


def _placed(offset: int, anchored: Anchored) -> StatementFacts:
    origin, facts = anchored
    return facts if offset == origin else shifted_facts(facts, offset - origin)


class PrefixFacts:
    """The statements' facts up to the metadata prefix, sorted out in one pass.

    Readers ask about one binding (`at`) or walk the few statements that have
    any facts (`found`); the totals settle the budgets without collecting
    anything when everything fits. Statements starting at or past
    `prefix_end` are left out: all they found ends past it.
    """

    def __init__(self, pieces: FactPieces, prefix_end: int) -> None:
        self.pieces = pieces
        self.prefix_end = prefix_end
        # (offset, anchored facts) of the statements with any facts; shifted
        # into place only when a reader asks (`found`).
        self._found: list[tuple[int, Anchored]] = []
        self.shape_total = self.field_total = self.alias_total = 0
        for offset, anchored in pieces:
            if offset >= prefix_end:
                break
            facts = anchored.facts
            if facts is not NO_FACTS:
                self._found.append((offset, anchored))
                self.shape_total += len(facts.shapes)
                self.field_total += facts.retained_fields
                self.alias_total += len(facts.aliases)

    @cached_property
    def found(self) -> list[StatementFacts]:
        return [_placed(offset, anchored) for offset, anchored in self._found]

    def at(self, offset: int) -> StatementFacts:
        """The facts of the statement an offset lies in (its first token or later)."""
        position = bisect_right(self.pieces, offset, key=_OFFSET) - 1
        if position < 0:
            return NO_FACTS
        return _placed(*self.pieces[position])

    def placed(self) -> list[tuple[int, StatementFacts]]:
        """Every statement's offset and facts in this version (costly: tests)."""
        return [(offset, _placed(offset, anchored)) for offset, anchored in self.pieces]


def whole_text_facts(
    tokens: Sequence[Token], events: Sequence[tuple], prefix_end: int
) -> PrefixFacts:
    """The facts of a text read as one piece (no statement of it to keep)."""
    return PrefixFacts([(0, Anchored(0, facts_of(tokens, events)))], prefix_end)


def import_report(facts: PrefixFacts) -> ImportReport:
    """Complete imports ending inside the prefix, at most MAX_MODULE_IMPORTS."""
    found: list[ModuleImport] = []
    truncated = False
    for statement in facts.found:
        for item in statement.imports:
            if item.path_end > facts.prefix_end:
                continue
            if len(found) == MAX_MODULE_IMPORTS:
                truncated = True
                continue
            found.append(item)
    return ImportReport(tuple(found), truncated)
