"""`octoscript mcp`: the checker, formatter, catalog search and language
reference as a Model Context Protocol server, for a model that writes
Octoscript. A front end beside the language server and the CLI, over the
same analysis; see docs/cli.md.

`workspace` and `answers` do not import the MCP SDK; `server` does (the
`octoscript-lsp[mcp]` extra), and is loaded only by `octoscript mcp`.
"""
