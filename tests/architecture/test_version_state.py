"""No module but the statement cache keeps state from one version for the next.

A later version may share an earlier version's statements (`syntax/statements.py`,
the one per-statement cache) and nothing else: once every view of the later
version has been read, the earlier version's analysis and syntax result are
garbage as soon as nobody else holds them.
"""

from __future__ import annotations

import gc
import weakref
from functools import cached_property

from octoscript_lsp.analysis.document import DocumentAnalysis
from tests.syntax.test_incremental import BASES


def _every_view(analysis: DocumentAnalysis) -> list[weakref.ref]:
    """Reads every view; weak references to those that take one."""
    found = []
    for name, member in vars(DocumentAnalysis).items():
        if isinstance(member, (cached_property, property)):
            value = getattr(analysis, name)
            try:
                found.append(weakref.ref(value))
            except TypeError:
                pass  # lists, strings, numbers: nothing a later version could call on
    return found


def test_a_later_version_holds_no_earlier_analysis():
    for base in BASES:
        earlier = DocumentAnalysis(base, 1)
        views = _every_view(earlier)
        edited = base.replace("let", "let  ", 1) + "\nlet added = 1\n"
        later = DocumentAnalysis(edited, 2, earlier)
        _every_view(later)
        gone_analysis, gone_syntax = weakref.ref(earlier), weakref.ref(earlier.syntax)
        del earlier
        gc.collect()
        assert gone_analysis() is None, base
        assert gone_syntax() is None, base
        assert [view() for view in views if view() is not None] == [], base
        # What it does share is statements, and they answer for the later version.
        assert later.syntax is not None and later.syntax.statements.statements
