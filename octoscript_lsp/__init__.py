"""Octoscript language server, checker and formatter."""

__version__ = "0.1.0"
