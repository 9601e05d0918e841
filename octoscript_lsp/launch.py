"""Command line of the `octoscript-lsp` program (the server itself is in `server`).

The server speaks LSP on stdin/stdout only; `--stdio` is accepted because many
clients pass it. Logs go to stderr, or to `--log-file` (opened once at start,
before any client message; the only file the server writes).

`main` reads the options before the server's modules load, so `--help`,
`--version` and option errors answer without pygls.
"""

from __future__ import annotations

import argparse
import importlib
import logging
from collections.abc import Sequence

from . import __version__

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
DEFAULT_LOG_LEVEL = "warning"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="octoscript-lsp",
        description="Octoscript language server (LSP over stdin/stdout).",
        epilog="exit codes: 0 after a normal shutdown or --help/--version, 2 for unknown options",
    )
    parser.add_argument("--version", action="version", version=f"octoscript-lsp {__version__}")
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="talk LSP over stdin/stdout (the default and only mode)",
    )
    # vscode-languageclient passes this beside --stdio when a transport is set.
    parser.add_argument(
        "--clientProcessId", metavar="PID", type=int, help="accepted and ignored (client's pid)"
    )
    parser.add_argument("--log-file", metavar="PATH", help="append logs to PATH instead of stderr")
    parser.add_argument(
        "--log-level",
        metavar="LEVEL",
        type=str.lower,
        choices=LOG_LEVELS,
        default=DEFAULT_LOG_LEVEL,
        help=f"one of {', '.join(LOG_LEVELS)} (default {DEFAULT_LOG_LEVEL})",
    )
    return parser


def configure(argv: Sequence[str] | None) -> None:
    """Read the options and set up logging; argparse exits 0 for --help and
    --version, 2 for bad options."""
    options = build_parser().parse_args(argv)
    level = getattr(logging, options.log_level.upper())
    if options.log_file is None:
        logging.basicConfig(level=level)
        return
    try:
        logging.basicConfig(
            level=level,
            filename=options.log_file,
            encoding="utf-8",
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    except OSError as error:
        # A usage error like an unknown option (exit 2), not a traceback.
        build_parser().error(
            f"cannot open the log file {options.log_file}: {error.strerror or error}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """`octoscript-lsp [--stdio] [--log-file PATH] [--log-level LEVEL]`."""
    configure(argv)
    # The entry point's one deferred import: the server after its options.
    server = importlib.import_module("octoscript_lsp.server")
    return server.serve()
