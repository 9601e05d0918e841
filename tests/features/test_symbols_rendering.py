"""The outline reuses rendered entries across versions only where they still hold."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features import symbols
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.features.symbols import document_symbols_wire, rendered_pieces

BASE = "".join(
    f"fn f{index}(x) {{\n    return x\n}}\nlet v{index} = f{index}(1)\n" for index in range(40)
)


def document_symbols(analysis: DocumentAnalysis, positions: PositionMap) -> list:
    return json.loads(document_symbols_wire(analysis, positions))


def fresh(text: str) -> list:
    return list(document_symbols(DocumentAnalysis(text), PositionMap(text)))


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text.replace("return x\n}\nlet v3", "return 2\n}\nlet v3"),  # same length
        lambda text: "\n" + text,  # every line moves
        lambda text: text.replace("let v5 = f5(1)", "let v5 = f5(1); let w = 2"),
        lambda text: text.replace("fn f7(x) {\n    return x\n}\n", ""),
        lambda text: text.replace("let v2 = f2(1)\n", "let v2 = f2(1)\n\n"),  # lines below move
    ],
)
def test_rendered_entries_equal_a_fresh_outline(edit):
    first = DocumentAnalysis(BASE, 1)
    assert list(document_symbols(first, PositionMap(BASE))) == fresh(BASE)
    text = edit(BASE)
    second = DocumentAnalysis(text, 2, first)
    answer = list(document_symbols(second, PositionMap(text)))
    assert answer == fresh(text)
    third = DocumentAnalysis(text + "let last = 1\n", 3, second)
    wire = document_symbols_wire(third, PositionMap(third.source))
    assert json.loads(wire) == fresh(third.source)
    assert len(answer) == len(second.outline) > 70


def test_unmoved_declarations_keep_their_entries():
    first = DocumentAnalysis(BASE, 1)
    before = rendered_pieces(first, PositionMap(BASE))
    text = BASE.replace("let v30 = f30(1)", "let v30 = f30(7)")
    second = DocumentAnalysis(text, 2, first)
    after = rendered_pieces(second, PositionMap(text))
    assert after[0] is before[0] and after[-1] is before[-1]
    assert after[61] is not before[61]  # `let v30`, typed in
    assert json.loads(document_symbols_wire(second, PositionMap(text))) == fresh(text)


def test_wire_answer_is_the_outline_as_json():
    text = 'let a = 1\nfn g(x) {\n  return "\U0001f600"\n}\nlet v = g(1); let w = v\n'
    analysis = DocumentAnalysis(text)
    answer = json.loads(document_symbols_wire(analysis, PositionMap(text)))
    assert answer == fresh(text)
    assert [entry["name"] for entry in answer] == ["a", "g", "v", "w"]
    assert answer[3]["selectionRange"]["start"] == {"line": 4, "character": 18}
    assert (
        json.loads(document_symbols_wire(DocumentAnalysis("let = "), PositionMap("let = "))) == []
    )


def test_a_character_typed_on_an_earlier_line_keeps_the_later_entries():
    first = DocumentAnalysis(BASE, 1)
    before = rendered_pieces(first, PositionMap(BASE))
    text = BASE.replace("fn f0(x)", "fn f0(xy)", 1)  # every later offset moves by one
    second = DocumentAnalysis(text, 2, first)
    after = rendered_pieces(second, PositionMap(text))
    assert list(document_symbols(second, PositionMap(text))) == fresh(text)
    assert after[-1] is before[-1]  # same line, same text before it: not rendered again
    assert after[0] is not before[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1),
            st.integers(min_value=0, max_value=3),
            st.sampled_from(["", "q", "\n", "  ", "😀", "let z = 1\n", "fn h() {}\n", "}"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_rendering_carried_over_edits_equals_a_fresh_outline(changes):
    previous = DocumentAnalysis(BASE, 0)
    document_symbols(previous, PositionMap(BASE))
    text = BASE
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + removed :]
        current = DocumentAnalysis(text, version, previous)
        wire = document_symbols_wire(current, PositionMap(text))
        assert json.loads(wire) == fresh(text)
        previous = current


# Several declarations share a line, so a piece's lead holds text of the
# statement before it (from outside its run when that one was parsed again).
CROWDED = "".join(
    f"let a{index} = {index}; fn g{index}() {{ 1 }}; let b{index} = a{index}\n"
    + ("\n" if index % 3 == 0 else "")
    for index in range(30)
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([BASE, CROWDED]),
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1),
            st.integers(min_value=0, max_value=3),
            st.sampled_from(["", "7", "q", "\n", " ", "; let y = 2", "let z = 1\n"]),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_outline_asked_now_and_then_equals_a_fresh_outline(base, changes):
    """Versions the outline is not asked for in between: the rendered pieces
    come over several edits at once (the parser's maps of kept statements
    composed), and a run of kept statements skips finding each line."""
    previous = DocumentAnalysis(base, 0)
    document_symbols(previous, PositionMap(base))
    text = base
    for version, (where, removed, inserted, asked) in enumerate(changes, start=1):
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + removed :]
        current = DocumentAnalysis(text, version, previous)
        if asked or version == len(changes):
            wire = document_symbols_wire(current, PositionMap(text))
            assert json.loads(wire) == fresh(text)
        previous = current


def test_typing_in_one_statement_renders_only_its_entries(monkeypatch):
    """A digit typed in the middle: every other statement's entries are its
    text as rendered for the version before (the same line, the same text
    before it there)."""
    first = DocumentAnalysis(BASE, 1)
    document_symbols(first, PositionMap(BASE))
    text = BASE.replace("let v20 = f20(1)", "let v20 = f20(2)")
    second = DocumentAnalysis(text, 2, first)
    rendered = []
    entry_text = symbols._entry_text
    monkeypatch.setattr(
        symbols,
        "_entry_text",
        lambda item, positions: rendered.append(item) or entry_text(item, positions),
    )
    answer = list(document_symbols(second, PositionMap(text)))
    assert [item.name for item in rendered] == ["v20"]
    assert answer == fresh(text)
    assert len(answer) == 80
