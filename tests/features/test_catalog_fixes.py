"""Did-you-mean and fill-required-fields quick fixes, chosen by finding code."""

from __future__ import annotations

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.fixes import fixes
from octoscript_lsp.catalogs.store import CatalogStore
from tests.lsp.catalog_data import MODULES, TOOLS


def catalogs(**section) -> CatalogStore:
    store = CatalogStore()
    store.apply_initialization_options(
        {"octoscript": section or {"toolCatalog": TOOLS, "moduleCatalog": MODULES}}
    )
    return store


def applied(text: str, store: CatalogStore | None = None) -> list[tuple[str, str, str | None]]:
    """(title, text after the fix, code of the finding it repairs) per catalog fix."""
    out = []
    for fix in fixes(DocumentAnalysis(text), 0, len(text), store or catalogs()):
        start, end, new = fix.edit
        code = fix.about.code if fix.about else None
        out.append((fix.title, text[:start] + new + text[end:], code))
    return out


def test_unlisted_tool_gets_the_listed_name_of_its_format():
    text = 'use mod.tool\ntool.call("text.ecko", "x")\n'
    assert applied(text) == [
        (
            "Did you mean `text.echo`?",
            'use mod.tool\ntool.call("text.echo", "x")\n',
            "unlisted-tool",
        )
    ]


def test_format_decides_the_candidates():
    # svc.lookup is a json tool: tool.call (text) gets no suggestion for it.
    assert applied('use mod.tool\ntool.call("svc.lokup", "x")\n') == []
    fixed = applied('use mod.tool\ntool.call_json("svc.lokup", {})\n')
    assert [title for title, _, _ in fixed] == ["Did you mean `svc.lookup`?"]


def test_nothing_close_offers_nothing():
    assert applied('use mod.tool\ntool.call("weather.now", "x")\n') == []


def test_without_a_valid_catalog_nothing_is_offered():
    text = 'use mod.tool\ntool.call("text.ecko", "x")\n'
    assert applied(text, CatalogStore()) == []
    discarded = CatalogStore()
    discarded.apply_initialization_options({"octoscript": {"toolCatalog": "bad"}})
    assert applied(text, discarded) == []


def test_unlisted_member_replaces_only_the_method_name():
    text = 'use mod.app.weather\nweather.curent({location: "x"})\n'
    assert applied(text) == [
        (
            "Did you mean `current`?",
            'use mod.app.weather\nweather.current({location: "x"})\n',
            "unlisted-module-member",
        )
    ]


def test_unknown_key_suggests_fields_not_yet_present():
    text = 'use mod.app.weather\nweather.current({location: "x", unit: "c"})\n'
    assert applied(text) == [
        (
            "Did you mean `units`?",
            'use mod.app.weather\nweather.current({location: "x", units: "c"})\n',
            "unknown-input-field",
        )
    ]
    # `location` is present already, so `locaton` has nothing left to become.
    taken = 'use mod.app.weather\nweather.current({location: "x", locaton: "y"})\n'
    assert applied(taken) == []


def test_empty_record_gets_the_required_field():
    text = "use mod.app.weather\nweather.current({})\n"
    assert applied(text) == [
        (
            "Add required input field",
            'use mod.app.weather\nweather.current({location: ""})\n',
            "missing-input-field",
        )
    ]


def test_one_line_record_stays_on_one_line_with_typed_placeholders():
    text = 'use mod.app.report\nreport.build({title: "t"})\n'
    assert [after for _, after, _ in applied(text)] == [
        "use mod.app.report\n"
        'report.build({title: "t", count: 0, draft: false, extra: nil, meta: {}, tags: []})\n'
    ]


def test_multi_line_record_gets_one_field_per_line_at_member_indent():
    text = (
        'use mod.app.report\nfn go() {\n    report.build({\n        title: "t" // hi\n    })\n}\n'
    )
    assert [after for _, after, _ in applied(text)] == [
        "use mod.app.report\nfn go() {\n    report.build({\n"
        '        title: "t" // hi\n'
        "        count: 0\n        draft: false\n        extra: nil\n"
        "        meta: {}\n        tags: []\n    })\n}\n"
    ]


def test_multi_line_record_closed_on_the_last_member_line():
    text = 'use mod.app.weather\nlet w = weather.current({\n    units: "c"})\n'
    assert [after for _, after, _ in applied(text)] == [
        'use mod.app.weather\nlet w = weather.current({\n    units: "c"\n    location: ""\n})\n'
    ]


def test_crlf_record_keeps_crlf():
    text = "use mod.app.weather\r\nlet w = weather.current({\r\n})\r\n"
    assert [after for _, after, _ in applied(text)] == [
        'use mod.app.weather\r\nlet w = weather.current({\r\n    location: ""\r\n})\r\n'
    ]


def test_fixed_documents_are_valid_and_quiet():
    for text in (
        "use mod.app.weather\nweather.current({})\n",
        'use mod.app.report\nreport.build({\n    title: "t"\n})\n',
    ):
        for _, after, _ in applied(text):
            analysis = DocumentAnalysis(after)
            assert analysis.valid
            assert applied(after) == []


def test_fixes_only_meet_the_requested_range():
    text = 'use mod.tool\ntool.call("text.ecko", "x")\ntool.call("text.ecko", "y")\n'
    second = text.rindex("text.ecko")
    found = fixes(DocumentAnalysis(text), second, second, catalogs())
    assert [fix.edit[0] for fix in found] == [second - 1]


def test_format_mismatch_switches_to_the_method_of_the_tools_format():
    text = 'use mod.tool\ntool.call("svc.lookup", "x")\ntool.start_json("text.echo", {})\n'
    assert applied(text) == [
        (
            "Use `tool.call_json`",
            'use mod.tool\ntool.call_json("svc.lookup", "x")\ntool.start_json("text.echo", {})\n',
            "tool-format-mismatch",
        ),
        (
            "Use `tool.start`",
            'use mod.tool\ntool.call("svc.lookup", "x")\ntool.start("text.echo", {})\n',
            "tool-format-mismatch",
        ),
    ]
