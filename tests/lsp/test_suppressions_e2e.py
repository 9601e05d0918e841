"""End-to-end, editor against `octoscript check`: suppression comments and fix-all.

The suppression examples of docs/cli.md give, in the editor (pushed, pulled
with refresh, pulled without), exactly the findings `check` reports for the
same file and catalog; the `source.fixAll.octoscript` action gives exactly
the text `check --fix` writes, on the `--fix` examples of docs/cli.md and
the inputs of tests/cli/test_fix.py.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from octoscript_lsp.analysis.suppressions import CODE_UNUSED_SUPPRESSION
from octoscript_lsp.features.code_actions import KINDS
from tests.cli import test_fix
from tests.cli.invoke import run
from tests.conftest import ROOT, SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES
from tests.lsp.test_diagnostic_delivery import SETTLE_SECONDS, pulling_capabilities

# The servers are module-scoped, so the tests that use them run in the module's event loop.
IN_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")

URI = "file:///workspace/suppressed.octoscript"
DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
# The catalog docs/cli.md names for its examples.
DOC_SETTINGS = {"toolCatalog": [{"name": "text.echo", "format": "text"}]}
SEVERITIES = {1: "error", 2: "warning", 3: "info", 4: "hint"}


def section_examples(heading: str) -> list[str]:
    """The ```octoscript blocks of one `###` section of docs/cli.md."""
    section = DOC.split(f"### {heading}\n", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"```octoscript\n(.*?)```", section, re.DOTALL)


SUPPRESSION_EXAMPLES = section_examples("Rules and suppression comments")
FIX_EXAMPLES = section_examples("`--fix`")


def test_the_docs_have_the_examples() -> None:
    assert len(SUPPRESSION_EXAMPLES) == 3 and len(FIX_EXAMPLES) == 2
    assert all("octoscript: ignore" in text for text in SUPPRESSION_EXAMPLES)


def check(tmp_path: Path, text: str, settings: dict, *args: str) -> list[tuple]:
    """What `octoscript check ARGS` reports: (line, col, end, severity, message, code)."""
    (tmp_path / "host.json").write_text(json.dumps(settings))
    (tmp_path / "s.octoscript").write_text(text)
    result = run(
        "check",
        "--output-format",
        "json",
        "--settings",
        "host.json",
        *args,
        "s.octoscript",
        cwd=tmp_path,
    )
    (report,) = [json.loads(line) for line in result.stdout.decode().splitlines()]
    return sorted(
        (
            item["line"],
            item["column"],
            item["end_line"],
            item["end_column"],
            item["severity"],
            item["message"],
            item["code"],
        )
        for item in [*report["diagnostics"], *report.get("warnings", [])]
    )


def shown(found: list[types.Diagnostic]) -> list[tuple]:
    """The editor's diagnostics in `check`'s terms (ASCII text: columns are code points)."""
    out = []
    for item in found:
        severity = SEVERITIES[int(item.severity)]
        if item.code == CODE_UNUSED_SUPPRESSION:
            # A faded hint in the editor, a warning from --report-unused.
            assert (severity, list(item.tags)) == ("hint", [types.DiagnosticTag.Unnecessary])
            severity = "warning"
        start, end = item.range.start, item.range.end
        out.append(
            (
                start.line + 1,
                start.character + 1,
                end.line + 1,
                end.character + 1,
                severity,
                item.message,
                item.code,
            )
        )
    return sorted(out)


async def start(
    client: LanguageClient, capabilities: types.ClientCapabilities, settings: dict
) -> types.InitializeResult:
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities, initialization_options={"octoscript": settings}
        )
    )


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=SERVER_COMMAND),
    params=["pushed", "pulled", "refreshed"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request):
    capabilities = {
        "pushed": CAPABILITIES,
        "pulled": pulling_capabilities(refresh=False),
        "refreshed": pulling_capabilities(refresh=True),
    }[request.param]
    await start(lsp_client, capabilities, DOC_SETTINGS)
    lsp_client.delivery = request.param
    yield
    await lsp_client.shutdown_session()


async def editor_diagnostics(client: LanguageClient, text: str) -> list[types.Diagnostic]:
    # One server per delivery serves every example, each in a document of its own.
    uri = URI.replace(".octoscript", f"{SUPPRESSION_EXAMPLES.index(text)}.octoscript")
    session.open_document(client, text, uri=uri)
    if client.delivery == "pulled":
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        return list(report.items)
    await asyncio.sleep(SETTLE_SECONDS)  # the second pass: advice and unused comments
    if client.delivery == "refreshed":
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        return list(report.items)
    return list(client.diagnostics[uri])


@IN_MODULE_LOOP
@pytest.mark.parametrize("text", SUPPRESSION_EXAMPLES, ids=["tool", "syntax", "unused"])
async def test_editor_shows_what_check_reports(client: LanguageClient, tmp_path: Path, text: str):
    reported = check(tmp_path, text, DOC_SETTINGS, "--report-unused")
    assert reported, "each example reports something"
    found = shown(await editor_diagnostics(client, text))
    assert found == reported
    # Without --report-unused, check reports the same less the unused comments.
    plain = check(tmp_path, text, DOC_SETTINGS)
    assert plain == [item for item in found if item[-1] != CODE_UNUSED_SUPPRESSION]


# ----------------------------------------------------------------------------- fix-all


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND), scope="module")
async def fixing_client(lsp_client: LanguageClient):
    lsp_client.initialized = await start(lsp_client, CAPABILITIES, test_fix.SETTINGS)
    yield
    await lsp_client.shutdown_session()


FIX_INPUTS = [
    *FIX_EXAMPLES,
    *(before for _, before, _, _ in test_fix.CASES),
    "var a = [1, 2,]\nlet b = 'x'\n",  # rounds
    "var a = 1\nlet if = 2\n",  # refused: still invalid
    'use mod.tool\nlet b = tool.call("text.ecko", "y") // octoscript: ignore[unlisted-tool]\n',
    "let a = 1\n",  # nothing to fix
]


async def fix_all(client: LanguageClient, text: str, uri: str, only: list[str]) -> str | None:
    """The text after the fix-all action the server offers, or None when it offers none."""
    session.open_document(client, text, uri=uri)
    end = types.Position(line=text.count("\n") + 1, character=0)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=end),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    fix_alls = [action for action in actions or [] if action.kind == "source.fixAll.octoscript"]
    assert all(action.kind == "source.fixAll.octoscript" for action in actions or [])
    if not fix_alls:
        return None
    ((action),) = fix_alls
    (edit,) = action.edit.changes[uri]
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        return sum(len(line) + 1 for line in lines[: position.line]) + position.character

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


@IN_MODULE_LOOP
async def test_fix_all_gives_what_check_fix_writes(fixing_client: LanguageClient, tmp_path: Path):
    changed = 0
    for index, text in enumerate(FIX_INPUTS):
        (tmp_path / "host.json").write_text(json.dumps(test_fix.SETTINGS))
        script = tmp_path / "s.octoscript"
        script.write_text(text)
        run("check", "--settings", "host.json", "--fix", "s.octoscript", cwd=tmp_path)
        written = script.read_text()
        uri = f"file:///workspace/fix{index}.octoscript"
        only = ["source.fixAll"] if index % 2 else ["source.fixAll.octoscript"]
        fixed = await fix_all(fixing_client, text, uri, only)
        if written == text:
            assert fixed is None, text
        else:
            changed += 1
            assert fixed == written, text
    assert changed == len(FIX_INPUTS) - 4


@IN_MODULE_LOOP
async def test_quick_fixes_and_fix_all_by_kind(fixing_client: LanguageClient):
    text = "var a = [1, 2,]\n"
    uri = "file:///workspace/kinds.octoscript"
    session.open_document(fixing_client, text, uri=uri)

    async def kinds(**context) -> list[str]:
        here = types.Position(line=0, character=0)
        found = await fixing_client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=here, end=here),
                context=types.CodeActionContext(diagnostics=[], **context),
            )
        )
        return [getattr(action.kind, "value", action.kind) for action in found]

    quick = types.CodeActionKind.QuickFix.value
    # A lightbulb's own request: quick fixes only, fix-all is not worked out.
    assert set(await kinds()) == {quick}
    assert set(await kinds(trigger_kind=types.CodeActionTriggerKind.Automatic)) == {quick}
    # A person opening the menu, or asking for the kind: fix-all too.
    invoked = await kinds(trigger_kind=types.CodeActionTriggerKind.Invoked)
    assert invoked[-1] == "source.fixAll.octoscript" and quick in invoked
    assert await kinds(only=["source"]) == ["source.fixAll.octoscript"]
    assert set(await kinds(only=[quick])) == {quick}
    assert await kinds(only=["refactor"]) == []


@IN_MODULE_LOOP
async def test_codeaction_provider_advertises_fix_all(fixing_client: LanguageClient):
    provider = fixing_client.initialized.capabilities.code_action_provider
    assert list(provider.code_action_kinds) == KINDS


@IN_MODULE_LOOP
async def test_ignore_quick_fix_silences_the_finding(fixing_client: LanguageClient):
    text = 'use mod.tool\nlet a = tool.call("text.ecko", "x")\n'
    uri = "file:///workspace/ignore.octoscript"
    session.open_document(fixing_client, text, uri=uri)
    await asyncio.sleep(SETTLE_SECONDS)
    assert [item.code for item in fixing_client.diagnostics[uri]] == ["unlisted-tool"]
    here = types.Position(line=1, character=3)
    found = await fixing_client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=here, end=here),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    (action,) = [item for item in found if item.title == "Ignore `unlisted-tool` on this line"]
    assert [item.code for item in action.diagnostics] == ["unlisted-tool"]
    (edit,) = action.edit.changes[uri]
    fixing_client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)
            ],
        )
    )
    await asyncio.sleep(SETTLE_SECONDS)
    assert list(fixing_client.diagnostics[uri]) == []
