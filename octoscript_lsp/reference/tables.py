"""Reference sections written from the server's own tables: the `mod.tool`
methods and the std modules that hover and completion read
(`analysis/surfaces.py`), and the lexer's reserved words (`syntax/tokens.py`).
Nothing here repeats a name or a description, so the reference says what the
editor says."""

from __future__ import annotations

from ..analysis import surfaces
from ..analysis.surfaces import StdModule
from ..syntax.tokens import COMPATIBILITY_WORDS, KEYWORDS

# The contextual word the lexer reads as a name (the parser gives it meaning
# only right after a try branch).
CONTEXTUAL_CATCH = "catch"


def std_section_name(module: StdModule) -> str:
    return f"std.{module.name}"


def tool_section() -> str:
    lines = [
        "# mod.tool",
        "",
        f"`use {'.'.join(surfaces.TOOL_MODULE_PATH)}` binds `{surfaces.TOOL_BINDING}`, "
        "whose methods run the host's tools by their catalog name.",
        "",
    ]
    for method in surfaces.TOOL_METHODS:
        lines += [
            f"## {method.signature_label}",
            "",
            f"Tool format `{method.format.value}`. {method.description}",
            "",
        ]
    lines.append(surfaces.TOOL_AUTHORITY_NOTE)
    return "\n".join(lines) + "\n"


def std_overview() -> str:
    lines = [
        "# Standard modules",
        "",
        "Built in, side-effect free; importing one looks up no host module and grants "
        "nothing. Each has its own section (`std.<name>`).",
        "",
    ]
    for module in surfaces.STD_MODULES:
        import_line = f"use {'.'.join(module.path)}"
        if module.is_function:
            lines.append(f"- `{import_line}`: {surfaces.ASSERT_FUNCTION.description}")
        else:
            names = ", ".join(surfaces.member_names(module))
            lines.append(f"- `{import_line}`: {module.summary} Members: {names}.")
    return "\n".join(lines) + "\n"


def std_module_section(module: StdModule) -> str:
    import_line = f"use {'.'.join(module.path)}"
    if module.is_function:
        return f"# {import_line}\n\n{surfaces.assert_documentation()}\n"
    lines = [f"# {import_line}", "", module.summary, ""]
    for member in module.members:
        lines += [f"## {member.header(module.name)}", "", member.description, ""]
    lines.append(module.authority_note)
    return "\n".join(lines) + "\n"


def keywords_section() -> str:
    keywords = ", ".join(f"`{word}`" for word in sorted(KEYWORDS))
    reserved = ", ".join(f"`{word}`" for word in sorted(COMPATIBILITY_WORDS))
    return (
        "# Keywords\n\n"
        f"Keywords: {keywords}. None of them can be a name, a record key or a member.\n\n"
        f"Reserved compatibility words, refused anywhere in source (`reserved-word`): "
        f"{reserved}.\n\n"
        f"`{CONTEXTUAL_CATCH}` separates the branches of `try ... catch ...` and is an "
        "ordinary name everywhere else. `mod` starts every `use` path; `.await()` is a "
        "method call, not a keyword.\n"
    )
