"""Stable codes of syntax diagnostics.

Messages follow the reference and may be reworded; codes never change once
published, so editors, CI filters and quick fixes key on them. Every code is
documented in docs/diagnostics.md (a test checks that).
"""

from __future__ import annotations

from enum import StrEnum


class SyntaxCode(StrEnum):
    # Lexer
    INVALID_CHARACTER = "invalid-character"
    BARE_CARRIAGE_RETURN = "bare-carriage-return"
    INVALID_NUMBER = "invalid-number"
    UNTERMINATED_STRING = "unterminated-string"
    INVALID_ESCAPE = "invalid-escape"
    SINGLE_QUOTED_STRING = "single-quoted-string"
    UNTERMINATED_COMMENT = "unterminated-comment"
    UNSUPPORTED_OPERATOR = "unsupported-operator"
    TOKEN_LIMIT = "token-limit"
    # Parser
    NESTING_LIMIT = "nesting-limit"
    EXPECTED_IDENTIFIER = "expected-identifier"
    EXPECTED_EXPRESSION = "expected-expression"
    EXPECTED_TOKEN = "expected-token"
    RESERVED_WORD = "reserved-word"
    TRAILING_COMMA = "trailing-comma"
    MISSING_STATEMENT_END = "missing-statement-end"
    UNEXPECTED_CLOSING_BRACE = "unexpected-closing-brace"
    TRY_BLOCK_WITHOUT_VALUE = "try-block-without-value"
    TOO_MANY_FOR_BINDINGS = "too-many-for-bindings"
    UNPARENTHESIZED_CONDITION = "unparenthesized-condition"
    LAMBDA_BRANCH_NEEDS_BLOCK = "lambda-branch-needs-block"
    # What the runtime's parser rejects in canonically valid source
    RUNTIME_LAMBDA_TAIL = "runtime-lambda-tail"
    RUNTIME_LAMBDA_CONDITION = "runtime-lambda-condition"
    RUNTIME_ASSIGNMENT_CONDITION = "runtime-assignment-condition"
