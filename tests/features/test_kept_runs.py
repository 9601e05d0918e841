"""Kept statements are trusted only where they hold.

The formatter and the outline reuse each kept statement's view. These
documents put what must still be checked next to kept statements: a
comment before a statement on its line, statements joined on one line with
`;` (formatted together), the last statement (which ends the text), CRLF
line ends; the edits are typed into one statement at a time, as an editor
does, so most statements are kept. The views carried over every version,
asked for now and then, must equal a fresh document's.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.features.symbols import document_symbols_wire
from octoscript_lsp.limits import MAX_SYNTAX_TOKENS
from octoscript_lsp.syntax import formatter
from octoscript_lsp.syntax.formatter import format_tokens

STATEMENTS = [
    "let v{n} = {n}",
    "fn f{n}(x) {{\n    return x + {n}\n}}",
    "let r{n} = {{a: {n}, b: [1, 2]}}",
    "v0 = v0+{n}",
    "fn g{n}() {{ return {n}; }}",
    "let q{n} = |y| y",
]
# Before a statement on its line.
LEADS = ["", "  ", "/* c */ ", "\t/* d */"]
# After a statement: the next one on a new line or on the same one.
SEPARATORS = ["\n", "; ", ";", "\n\n", " // t\n", "\n/* e */\n"]
PRELUDE = "let v0 = 0\n"

# One statement: (statement, lead, separator, number typed into it).
part = st.tuples(
    st.integers(0, len(STATEMENTS) - 1),
    st.integers(0, len(LEADS) - 1),
    st.integers(0, len(SEPARATORS) - 1),
    st.integers(0, 99),
)
document = st.tuples(st.lists(part, min_size=2, max_size=30), st.booleans(), st.booleans())
edit = st.tuples(
    st.sampled_from(["type", "lead", "separator", "insert", "delete", "brace", "last"]),
    st.integers(0, 1000),
    st.integers(0, 1000),
    st.booleans(),
)


def render(parts: list, crlf: bool, final_newline: bool) -> str:
    text = PRELUDE + "".join(
        LEADS[lead] + STATEMENTS[kind].format(n=number) + SEPARATORS[separator]
        for kind, lead, separator, number in parts
    )
    if not final_newline:
        text = text.rstrip("\n; ")
    return text.replace("\n", "\r\n") if crlf else text


def edited(parts: list, operation: str, at: int, choice: int) -> list:
    parts = list(parts)
    where = at % len(parts)
    kind, lead, separator, number = parts[where]
    if operation == "type":  # a digit more or less: every later statement moves
        parts[where] = (kind, lead, separator, (number * 10 + choice % 10) % 1000)
    elif operation == "lead":
        parts[where] = (kind, choice % len(LEADS), separator, number)
    elif operation == "separator":  # joins two lines with `;` or splits them
        parts[where] = (kind, lead, choice % len(SEPARATORS), number)
    elif operation == "insert":
        parts.insert(where, (choice % len(STATEMENTS), 0, 0, choice % 100))
    elif operation == "delete" and len(parts) > 2:
        del parts[where]
    elif operation == "last":  # typed into the last statement
        kind, lead, separator, number = parts[-1]
        parts[-1] = (kind, lead, separator, (number + choice) % 1000)
    return parts


def unbalanced(text: str, at: int) -> str:
    """An opening brace typed at a line start: the text is invalid until removed."""
    lines = text.split("\n")
    where = at % len(lines)
    lines[where] = "{" + lines[where]
    return "\n".join(lines)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document, st.lists(edit, min_size=1, max_size=10))
# A comment typed before a kept statement: its stretch's lead changed, its text not.
@example(
    ([(0, 0, 0, 1), (0, 0, 0, 2), (0, 0, 0, 3), (0, 0, 0, 4)], False, True),
    [("lead", 2, 2, True)],
)
# Typed into a line after statements joined by `;`: the run before the edit
# ends inside the stretch of the joined statements.
@example(
    ([(0, 0, 0, 1), (0, 0, 1, 2), (0, 0, 1, 3), (0, 0, 0, 4), (0, 0, 0, 5)], False, True),
    [("type", 4, 7, True)],
)
def test_views_over_kept_runs_equal_a_fresh_document(doc, changes):
    parts, crlf, final_newline = doc
    text = render(parts, crlf, final_newline)
    previous = DocumentAnalysis(text, 0)
    assert previous.valid, text
    assert previous.formatted == format_tokens(text, previous.syntax.tokens, MAX_SYNTAX_TOKENS)
    document_symbols_wire(previous, PositionMap(text))
    for version, (operation, at, choice, asked) in enumerate(changes, start=1):
        if operation == "brace":
            text = unbalanced(text, at)
        else:
            parts = edited(parts, operation, at, choice)
            text = render(parts, crlf, final_newline)
        current = DocumentAnalysis(text, version, previous)
        fresh = DocumentAnalysis(text)
        # Views not asked for now are carried over several versions at once.
        if asked or version == len(changes):
            assert current.formatted == fresh.formatted
            if fresh.valid:
                one_pass = format_tokens(text, fresh.syntax.tokens, MAX_SYNTAX_TOKENS)
                assert current.formatted == one_pass
            wire = document_symbols_wire(current, PositionMap(text))
            assert wire == document_symbols_wire(fresh, PositionMap(text))
        previous = current


def test_a_keystroke_formats_the_edited_statement_only(monkeypatch):
    """Typing into one statement of many: the formatter formats that
    statement again and takes every other one's text as it was, without
    making the whole text's tokens."""
    text = PRELUDE + "".join(
        f"let v{n} = {n}\nfn f{n}() {{\n    return {n}\n}}\n" for n in range(1, 200)
    )
    first = DocumentAnalysis(text, 1)
    assert first.formatted == text
    formatted: list[str] = []
    real = formatter._formatted

    def counting(statement):
        formatted.append(statement.text)
        return real(statement)

    monkeypatch.setattr(formatter, "_formatted", counting)
    edited_text = text.replace("let v100 = 100", "let v100 = 1007")
    second = DocumentAnalysis(edited_text, 2, first)
    assert second.formatted == edited_text
    assert len(second.syntax.statements.statements) == 399
    assert formatted == ["let v100 = 1007\n"]
    assert "_views" not in vars(second.syntax)
