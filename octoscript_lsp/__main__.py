"""`python -m octoscript_lsp`: run the language server (same as `octoscript-lsp`)."""

from .launch import main

main()
