"""Advisory catalog projections: parsing, replacement rules, lookups, search.

Pure layer: no LSP or pygls imports. See ``store`` for the replacement rules
and each parser module for its acceptance rules.
"""
