"""Canonical formatter: whitespace only, driven by the token stream.

It never rewrites a token, so literal spellings and comments survive
byte for byte; only horizontal spacing, indentation (four spaces per open
brace), line endings and trailing whitespace change. The caller must pass
tokens of source that already passed the checker.
"""

from __future__ import annotations

from ..limits import MAX_FORMATTED_SOURCE_BYTES
from .tokens import Kind, Token

INDENT = "    "
_HORIZONTAL_SPACE = " \t\f"
_CONTROL_WORDS = ("if", "elif", "while")
_NO_SPACE_BEFORE = (Kind.RPAREN, Kind.RBRACKET, Kind.RBRACE, Kind.COMMA, Kind.SEMICOLON)
_INDEXABLE = (
    Kind.IDENT,
    Kind.NUMBER,
    Kind.STRING,
    Kind.LPAREN,
    Kind.LBRACKET,
    Kind.RPAREN,
    Kind.RBRACKET,
    Kind.RBRACE,
)


class FormattedSourceTooLarge(Exception):
    """The formatted text would exceed MAX_FORMATTED_SOURCE_BYTES."""


def format_tokens(source: str, tokens: list[Token], max_tokens: int) -> str:
    writer = _Writer()
    # A newline is a token: under an exactly full token budget the final
    # newline is left off so the output still checks.
    append_final_newline = len(tokens) <= max_tokens
    cursor = 0
    previous: Token | None = None
    lambda_params_open = False
    previous_closed_lambda_params = False
    for token in tokens:
        if token.kind is Kind.END:
            break
        preserved_gap = writer.write_gap(source[cursor : token.start])
        if token.kind is Kind.NEWLINE:
            writer.newline()
            previous = None
            previous_closed_lambda_params = False
            cursor = token.end
            continue
        if token.kind is Kind.RBRACE and writer.indentation > 0:
            writer.indentation -= 1
        is_pipe = token.kind is Kind.OPERATOR and token.text == "|"
        if writer.at_line_start:
            writer.indent()
        elif (
            not preserved_gap
            and previous is not None
            and _needs_space(
                previous, token, previous_closed_lambda_params, is_pipe and lambda_params_open
            )
        ):
            writer.parts.append(" ")
        writer.write(source[token.start : token.end])
        if token.kind is Kind.LBRACE:
            writer.indentation += 1
        previous_closed_lambda_params = is_pipe and lambda_params_open
        if is_pipe:
            lambda_params_open = not lambda_params_open
        previous = token
        cursor = token.end
    writer.write_gap(source[cursor:])
    text = writer.text().rstrip(_HORIZONTAL_SPACE)
    if append_final_newline and text and not text.endswith("\n"):
        text += "\n"
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FORMATTED_SOURCE_BYTES:
        raise FormattedSourceTooLarge(len(text))
    return text


class _Writer:
    __slots__ = ("parts", "indentation", "at_line_start")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.indentation = 0
        self.at_line_start = True

    def text(self) -> str:
        return "".join(self.parts)

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.at_line_start = False

    def indent(self) -> None:
        if self.at_line_start:
            self.parts.append(INDENT * self.indentation)
            self.at_line_start = False

    def write_gap(self, gap: str) -> bool:
        """Write the comment text in a gap; report whether anything was kept."""
        if not gap.strip(_HORIZONTAL_SPACE):
            return False
        if self.at_line_start:
            self.indent()
            self.parts.append(gap.lstrip(_HORIZONTAL_SPACE))
        else:
            self.parts.append(gap)
        self.at_line_start = False
        return True

    def newline(self) -> None:
        self._trim_trailing_space()
        self.parts.append("\n")
        self.at_line_start = True

    def _trim_trailing_space(self) -> None:
        while self.parts:
            last = self.parts[-1]
            trimmed = last.rstrip(_HORIZONTAL_SPACE)
            if trimmed:
                self.parts[-1] = trimmed
                return
            self.parts.pop()


def _is_op(token: Token, op: str) -> bool:
    return token.kind is Kind.OPERATOR and token.text == op


def _needs_space(
    previous: Token,
    current: Token,
    previous_closed_lambda_params: bool,
    current_closes_lambda_params: bool,
) -> bool:
    if current_closes_lambda_params:
        return False
    if _is_op(previous, "|"):
        return previous_closed_lambda_params
    # `5 .field`: an adjacent dot would read as a decimal point.
    if previous.kind is Kind.NUMBER and _is_op(current, "."):
        return True
    if (
        previous.kind in (Kind.LPAREN, Kind.LBRACKET)
        or _is_op(previous, ".")
        or current.kind in _NO_SPACE_BEFORE
        or _is_op(current, ".")
        or _is_op(current, ":")
    ):
        return False
    if current.kind is Kind.LPAREN:
        return previous.kind is Kind.IDENT and previous.text in _CONTROL_WORDS
    if current.kind is Kind.LBRACKET:
        return previous.kind not in _INDEXABLE
    if current.kind is Kind.LBRACE:
        return previous.kind is not Kind.LBRACE
    return previous.kind is not Kind.LBRACE
