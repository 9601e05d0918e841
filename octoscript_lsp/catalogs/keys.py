"""The keys of the `octoscript` settings object that carry catalogs."""

from __future__ import annotations

SETTINGS_KEY = "octoscript"
TOOL_KEY = "toolCatalog"
MODULE_KEY = "moduleCatalog"
WORKFLOW_CATALOG_KEY = "workflowDataCatalog"
WORKFLOW_CONTEXT_KEY = "workflowDataStepContext"
CATALOG_FILES_KEY = "catalogFiles"
# The keys a catalog file may give, in the order the settings schema lists them.
CATALOG_KEYS = (TOOL_KEY, MODULE_KEY, WORKFLOW_CATALOG_KEY, WORKFLOW_CONTEXT_KEY)
