-- Configuration of the Octoscript language server for Neovim 0.11+.
--
-- With editors/neovim on the 'runtimepath', `vim.lsp.enable("octoscript")`
-- finds this file. Override any field with vim.lsp.config, for example:
--
--   vim.lsp.config("octoscript", {
--     cmd = { "/path/to/venv/bin/octoscript-lsp" },
--     -- The host's catalog files, relative to the workspace folder (the
--     -- directory holding a root marker); read again when they change.
--     settings = { octoscript = { catalogFiles = { "host/catalog.json" } } },
--   })
--   vim.lsp.enable("octoscript")
--
-- Inline catalogs work too (init_options = { octoscript = { toolCatalog =
-- { { name = "text.echo", format = "text" } } } }). vim.lsp.config merges
-- tables key by key, so a value given this way replaces only that key of the
-- defaults below. `:OctoscriptReloadCatalogs` (ftplugin/) reads the files again
-- by hand.
return {
  cmd = { "octoscript-lsp" },
  filetypes = { "octoscript" },
  root_markers = { ".git" },
  -- initializationOptions.octoscript: the advisory catalogs at start-up
  -- (toolCatalog, moduleCatalog, workflowDataCatalog, workflowDataStepContext).
  -- An empty object means "no catalogs"; vim.empty_dict() keeps it an object
  -- (a plain {} would be sent as a JSON array).
  init_options = { octoscript = vim.empty_dict() },
  -- Neovim offers file watching on macOS and Windows only by default; the
  -- server asks to watch nothing but the catalog files `catalogFiles` names,
  -- so offering it here costs nothing when none is named. On Linux, Neovim
  -- watches with inotifywait (inotify-tools) when it is installed.
  --
  -- Neovim applies versioned `documentChanges` (it skips an edit made for an
  -- older buffer version) without announcing it; the server offers rename
  -- only to clients that do.
  capabilities = {
    workspace = {
      didChangeWatchedFiles = { dynamicRegistration = true },
      workspaceEdit = { documentChanges = true },
    },
  },
}
