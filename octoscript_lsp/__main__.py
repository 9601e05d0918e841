"""`python -m octoscript_lsp`: run the language server (same as `octoscript-lsp`)."""

import sys

from .launch import main

sys.exit(main())
