"""The LSP `CompletionItemKind` of each fixed surface, as the reference sends it."""

from __future__ import annotations

from enum import IntEnum

from ..analysis.surfaces import MemberKind, StdMember


class CompletionKind(IntEnum):
    """The LSP `CompletionItemKind` numbers the fixed surfaces use."""

    METHOD = 2  # `tool.` members
    FUNCTION = 3  # std module functions (`math.sqrt`, `json.parse`, ...)
    FIELD = 5  # children of a direct `std.` / `std.<x>.` member site
    MODULE = 9  # `use mod.` / `use mod.std.` path segments
    VALUE = 12  # tool-name literals from the advisory tool catalog
    CONSTANT = 21  # `math.pi`, `math.e`


#: Kind for each fixed surface, named by where it shows up.
KIND_TOOL_METHOD = CompletionKind.METHOD
KIND_STD_FUNCTION = CompletionKind.FUNCTION
KIND_STD_CONSTANT = CompletionKind.CONSTANT
KIND_IMPORT_PATH_SEGMENT = CompletionKind.MODULE
KIND_STD_NAMESPACE_MEMBER = CompletionKind.FIELD
KIND_TOOL_NAME_LITERAL = CompletionKind.VALUE


def std_member_kind(member: StdMember) -> CompletionKind:
    """Constants (`math.pi`) complete as constants, everything else as functions."""
    if member.kind is MemberKind.CONSTANT:
        return KIND_STD_CONSTANT
    return KIND_STD_FUNCTION
