"""The TextMate grammar in grammar/octoscript.tmLanguage.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GRAMMAR = REPO / "grammar" / "octoscript.tmLanguage.json"

# Canonical keywords and reserved compatibility words of grammar v0.2.
KEYWORDS = {
    "if", "elif", "else", "try", "for", "in", "loop", "while", "fn", "let",
    "return", "break", "continue", "use", "true", "false", "nil",
}  # fmt: skip
RESERVED = {"var", "match", "ok", "do", "and", "or", "is", "mut", "me", "scope"}
# `catch` is contextual in the language but highlighted as keyword.control.
CONTEXTUAL = {"catch"}

WORD_LIST = re.compile(r"\\b\(\?:([A-Za-z_|]+)\)\\b")


def _words(patterns: list[dict]) -> dict[str, str]:
    """word -> scope name for every `\\b(?:a|b)\\b` match rule."""
    found: dict[str, str] = {}
    for rule in patterns:
        match = WORD_LIST.fullmatch(rule.get("match", ""))
        assert match, rule
        for word in match.group(1).split("|"):
            assert word not in found, word
            found[word] = rule["name"]
    return found


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text(encoding="utf-8"))


def test_valid_json_and_scope(grammar: dict) -> None:
    assert grammar["scopeName"] == "source.octoscript"
    assert grammar["name"] == "Octoscript"
    assert set(grammar["fileTypes"]) == {"octoscript", "octo"}
    assert grammar["patterns"]


def test_every_include_resolves(grammar: dict) -> None:
    repository = grammar["repository"]

    def walk(node: object) -> None:
        if isinstance(node, dict):
            include = node.get("include")
            if isinstance(include, str) and include.startswith("#"):
                assert include[1:] in repository, include
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(grammar)


def test_keyword_list(grammar: dict) -> None:
    words = _words(grammar["repository"]["keywords"]["patterns"])
    assert set(words) == KEYWORDS | CONTEXTUAL
    assert words["catch"].startswith("keyword.control.")
    control = KEYWORDS - {"fn", "let", "true", "false", "nil"}
    for word in control:
        assert words[word].startswith("keyword.control."), word
    assert words["true"].startswith("constant.language.")
    assert words["nil"].startswith("constant.language.")
    assert all(scope.endswith(".octoscript") for scope in words.values())


def test_reserved_word_list(grammar: dict) -> None:
    words = _words(grammar["repository"]["reserved-words"]["patterns"])
    assert set(words) == RESERVED
    assert set(words.values()) == {"invalid.illegal.reserved.octoscript"}


def test_documented_lists_match(grammar: dict) -> None:
    comment = grammar["comment"]
    for word in KEYWORDS | RESERVED | CONTEXTUAL:
        assert re.search(rf"\b{word}\b", comment), word


def test_regexes_compile_in_python_where_portable(grammar: dict) -> None:
    # Oniguruma syntax is close to Python's for the constructs used here;
    # this catches unbalanced groups and similar typos without node.
    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    re.compile(node[key].replace(r"\G", ""))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(grammar)


def test_grammar_samples_exist() -> None:
    samples = sorted((REPO / "grammar" / "tests").glob("*.test.octoscript"))
    assert samples
    for sample in samples:
        first = sample.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith('// SYNTAX TEST "source.octoscript"'), sample
