"""`python -m octoscript_lsp.cli`: the `octoscript` command."""

import sys

from .main import main

sys.exit(main())
