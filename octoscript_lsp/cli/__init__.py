"""`octoscript` command-line tool: check, format, outline, tool-calls, catalog check.

Every command reads only the paths it is given (or `-` for stdin) and never
evaluates source. See `docs/cli.md` for every command, flag and exit code.
"""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
