"""The docs hold together: relative links and their anchors resolve, the
history stays in git (no issue numbers or commit hashes in the docs), and the
two design documents stay short enough to read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# The documents whose links are checked (CONTRIBUTING.md once it exists).
LINKED = sorted(
    [
        *(path for path in (ROOT / "README.md", ROOT / "CONTRIBUTING.md") if path.exists()),
        *DOCS.glob("*.md"),
        *ROOT.glob("editors/*/README.md"),
    ]
)
# The documents that must not carry the project's history (CHANGELOG.md aside).
HISTORY_FREE = sorted({*DOCS.rglob("*.md"), *DOCS.rglob("*.txt"), *LINKED})
MAX_LINES = {"architecture.md": 320, "performance.md": 250}

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
# [text](target) and [text](target "title"); images too.
_LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)
_ISSUE_NUMBER = re.compile(r"(?<![\w&/])#\d+\b|\b[Ii]ssues?\s+#?\d+\b")
# A commit hash, short or full: 7-40 hex digits with a letter and a digit among them.
_HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")


def _prose(text: str) -> str:
    """The text without fenced code blocks."""
    return _FENCE.sub("", text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: markup dropped, lower case, punctuation
    removed, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, heading in _HEADING.findall(_prose(path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    text = _INLINE_CODE.sub("", _prose(path.read_text(encoding="utf-8")))
    return _LINK.findall(text)


def test_slug_follows_github():
    assert slug("Start-up and memory (`benchmarks/bench_startup.py`)") == (
        "start-up-and-memory-benchmarksbench_startuppy"
    )
    assert slug("End-to-end test in a real VS Code") == "end-to-end-test-in-a-real-vs-code"
    assert slug("Adding a kind of member: `recv.name`") == "adding-a-kind-of-member-recvname"


@pytest.mark.parametrize("path", LINKED, ids=lambda path: str(path.relative_to(ROOT)))
def test_relative_links_and_anchors_resolve(path: Path):
    broken = []
    for target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, vscode: ...
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading with that anchor")
    assert broken == []


@pytest.mark.parametrize("path", HISTORY_FREE, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_issue_numbers_or_commit_hashes(path: Path):
    text = path.read_text(encoding="utf-8")
    assert _ISSUE_NUMBER.findall(text) == []
    assert _HASH.findall(text) == []


def test_history_patterns_find_what_they_are_for():
    assert _ISSUE_NUMBER.findall("fixed in #27, see issue 12") == ["#27", "issue 12"]
    assert _ISSUE_NUMBER.findall("[a](x.md#heading-2) &#8212;") == []
    assert _HASH.findall("at 9dc70dc and eae8f95c0ffee") == ["9dc70dc", "eae8f95c0ffee"]
    assert _HASH.findall("2,500 lines, 1234567 bytes, deadbeef") == []


@pytest.mark.parametrize("name", sorted(MAX_LINES))
def test_design_documents_stay_short(name: str):
    lines = (DOCS / name).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES[name]


def test_the_benchmarks_the_docs_name_exist():
    """A script named like a benchmark (`bench_*.py`, `profile_*.py`, `fuzz_*.py`)
    in the docs is one in benchmarks/."""
    pattern = re.compile(r"\b((?:bench|profile|fuzz)_\w+\.py)\b")
    named = {name for path in LINKED for name in pattern.findall(path.read_text(encoding="utf-8"))}
    assert named  # the docs do name some
    assert sorted(name for name in named if not (ROOT / "benchmarks" / name).exists()) == []
