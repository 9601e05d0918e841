"""Modules loaded on first use: the one way this package defers an import.

Answering `initialize` and publishing the first syntax diagnostics needs the
protocol, the transport and the syntax layer; jsonschema (catalog
validation), the analysis views and most request features are needed only
later. Loading them at start-up cost about a fifth of the time to the
`initialize` answer (`docs/performance.md`, "Start-up and memory").

`lazy_module(name)` locates the module at once (a missing module still fails
at start-up) and returns its module object, whose code runs the first time
one of its attributes is read (`importlib.util.LazyLoader`). Callers bind it
at module level, like an import, and use `module.name` at call time; a plain
`from module import name` anywhere else loads it at that point, so a module
stays lazy only while every importer reaches it this way.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name` (absolute), executed on first attribute access."""
    known = sys.modules.get(name)
    if known is not None:
        return known
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        # As the import system does, so `parent.child` finds it.
        setattr(sys.modules[parent], child, module)
    return module
