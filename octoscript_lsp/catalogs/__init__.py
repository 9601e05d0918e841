"""Advisory catalog projections: parsing, replacement rules, lookups, search.

Pure layer: no LSP or pygls imports. See ``store`` for the replacement rules
and each parser module for its acceptance rules.
"""

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.fingerprint import canonical_json, fingerprint
from octoscript_lsp.catalogs.model import (
    CONVERTER,
    CallMode,
    CallShape,
    FieldType,
    ModuleCatalog,
    ModuleChild,
    ModuleDescriptor,
    ModuleField,
    ToolCatalog,
    ToolEntry,
    ToolFormat,
    WorkflowData,
    WorkflowDataCatalog,
    WorkflowField,
    WorkflowOutput,
    WorkflowStepContext,
    find_field,
)
from octoscript_lsp.catalogs.modules import parse_module_catalog, parse_module_path
from octoscript_lsp.catalogs.search import InvalidSearchQuery, search_tools
from octoscript_lsp.catalogs.store import (
    SETTINGS_KEY,
    CatalogState,
    CatalogStore,
    Projection,
)
from octoscript_lsp.catalogs.tools import is_valid_tool_name, parse_tool_catalog
from octoscript_lsp.catalogs.workflow import (
    parse_workflow_data_catalog,
    parse_workflow_step_context,
)
from octoscript_lsp.syntax.text import is_canonical_identifier
from octoscript_lsp.syntax.tokens import RESERVED_WORDS

__all__ = [
    "CONVERTER",
    "RESERVED_WORDS",
    "SETTINGS_KEY",
    "CallMode",
    "CallShape",
    "CatalogRejected",
    "CatalogState",
    "CatalogStore",
    "FieldType",
    "InvalidSearchQuery",
    "ModuleCatalog",
    "ModuleChild",
    "ModuleDescriptor",
    "ModuleField",
    "Projection",
    "ToolCatalog",
    "ToolEntry",
    "ToolFormat",
    "WorkflowData",
    "WorkflowDataCatalog",
    "WorkflowField",
    "WorkflowOutput",
    "WorkflowStepContext",
    "canonical_json",
    "find_field",
    "fingerprint",
    "is_canonical_identifier",
    "is_valid_tool_name",
    "parse_module_catalog",
    "parse_module_path",
    "parse_tool_catalog",
    "parse_workflow_data_catalog",
    "parse_workflow_step_context",
    "search_tools",
]
