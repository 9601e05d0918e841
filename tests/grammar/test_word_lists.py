"""One keyword list and one operator list across every description of the language.

The lexer (octoscript_lsp/syntax/tokens.py) is the ground truth; the EBNF,
the tree-sitter grammar (through its generated grammar.json), its highlight
query and the TextMate grammar must agree with it.
"""

from __future__ import annotations

import json
import re
from itertools import product

import pytest

from octoscript_lsp.syntax.tokens import (
    CANONICAL_OPERATORS,
    COMPATIBILITY_WORDS,
    KEYWORDS,
    OPERATOR_CHARS,
)

from .treesitter import GRAMMAR_DIR, QUERIES_DIR, REPO

EBNF = REPO / "grammar" / "octoscript.ebnf"
TEXTMATE = REPO / "grammar" / "octoscript.tmLanguage.json"
GRAMMAR_JSON = GRAMMAR_DIR / "src" / "grammar.json"

# Words the tree-sitter grammar spells out beyond the keywords: `catch` is
# contextual (an identifier elsewhere) and `mod` only starts a `use` path.
CONTEXTUAL_WORDS = {"catch", "mod"}
# TextMate gives these operator characters punctuation or lambda scopes.
TEXTMATE_PUNCTUATION_OPERATORS = {".", ":", "|"}
PUNCTUATION = {"(", ")", "[", "]", "{", "}", ",", ";"}


def ebnf_alternatives(rule: str) -> set[str]:
    text = re.sub(r"\(\*.*?\*\)", "", EBNF.read_text(encoding="utf-8"), flags=re.S)
    match = re.search(rf"^{re.escape(rule)}\s*=(.*?);\s*$", text, re.M | re.S)
    assert match, rule
    body = match.group(1)
    # Only quoted terminals separated by `|`: nothing else may hide in the rule.
    assert re.fullmatch(r'\s*"[^"]+"(\s*\|\s*"[^"]+")*\s*', body), body
    return set(re.findall(r'"([^"]+)"', body))


def grammar_strings() -> tuple[set[str], dict[str, str]]:
    """Literal strings of the tree-sitter rules, outside token() bodies, and
    the named rules that are exactly one string (word -> rule name)."""
    grammar = json.loads(GRAMMAR_JSON.read_text(encoding="utf-8"))
    strings: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") in ("TOKEN", "IMMEDIATE_TOKEN", "PATTERN"):
                return
            if node.get("type") == "STRING":
                strings.add(node["value"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(grammar["rules"])
    leaves = {
        body["value"]: name
        for name, body in grammar["rules"].items()
        if body.get("type") == "STRING" and not name.startswith("_")
    }
    return strings - {'"'}, leaves


def textmate_words(section: str) -> set[str]:
    repository = json.loads(TEXTMATE.read_text(encoding="utf-8"))["repository"]
    words: set[str] = set()
    for rule in repository[section]["patterns"]:
        match = re.fullmatch(r"\\b\(\?:([A-Za-z_|]+)\)\\b", rule["match"])
        assert match, rule
        words.update(match.group(1).split("|"))
    return words


def textmate_operators() -> set[str]:
    """Every run of one or two operator characters a TextMate operator rule matches."""
    repository = json.loads(TEXTMATE.read_text(encoding="utf-8"))["repository"]
    rules = [re.compile(rule["match"]) for rule in repository["operators"]["patterns"]]
    runs = {"".join(chars) for size in (1, 2) for chars in product(OPERATOR_CHARS, repeat=size)}
    return {run for run in runs if any(rule.fullmatch(run) for rule in rules)}


def test_ebnf_matches_the_lexer() -> None:
    assert ebnf_alternatives("keyword") == KEYWORDS
    assert ebnf_alternatives("compatibility-word") == COMPATIBILITY_WORDS
    assert ebnf_alternatives("canonical-operator") == CANONICAL_OPERATORS
    assert ebnf_alternatives("punctuation") == PUNCTUATION
    assert set("".join(CANONICAL_OPERATORS)) <= OPERATOR_CHARS


def test_tree_sitter_grammar_matches_the_lexer() -> None:
    strings, _ = grammar_strings()
    words = {string for string in strings if string.isalpha()}
    assert words == KEYWORDS | CONTEXTUAL_WORDS
    operators = {string for string in strings if set(string) <= OPERATOR_CHARS}
    assert operators == CANONICAL_OPERATORS
    assert strings - words - operators == PUNCTUATION


def test_textmate_grammar_matches_the_lexer() -> None:
    assert textmate_words("keywords") == KEYWORDS | {"catch"}
    assert textmate_words("reserved-words") == COMPATIBILITY_WORDS
    assert textmate_operators() == CANONICAL_OPERATORS - TEXTMATE_PUNCTUATION_OPERATORS


@pytest.mark.parametrize("query", ["highlights.scm"])
def test_highlights_cover_every_keyword_and_operator(query: str) -> None:
    text = (QUERIES_DIR / query).read_text(encoding="utf-8")
    strings, leaves = grammar_strings()
    for string in sorted(strings):
        if string in leaves:
            assert f"({leaves[string]})" in text, string
        else:
            assert f'"{string}"' in text, string
