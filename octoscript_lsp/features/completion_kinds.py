"""The LSP `CompletionItemKind` of each fixed surface, as the reference sends it."""

from __future__ import annotations

from lsprotocol.types import CompletionItemKind

from ..analysis.surfaces import MemberKind, StdMember

KIND_TOOL_METHOD = CompletionItemKind.Method  # `tool.` members
KIND_STD_FUNCTION = CompletionItemKind.Function  # `math.sqrt`, `json.parse`, ...
KIND_STD_CONSTANT = CompletionItemKind.Constant  # `math.pi`, `math.e`
KIND_IMPORT_PATH_SEGMENT = CompletionItemKind.Module  # `use mod.` / `use mod.std.` segments
KIND_STD_NAMESPACE_MEMBER = CompletionItemKind.Field  # children of a direct `std.` site
KIND_TOOL_NAME_LITERAL = CompletionItemKind.Value  # names from the advisory tool catalog


def std_member_kind(member: StdMember) -> CompletionItemKind:
    """Constants (`math.pi`) complete as constants, everything else as functions."""
    if member.kind is MemberKind.CONSTANT:
        return KIND_STD_CONSTANT
    return KIND_STD_FUNCTION
