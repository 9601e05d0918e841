-- Configuration of the Octoscript language server for Neovim 0.11+.
--
-- With editors/neovim on the 'runtimepath', `vim.lsp.enable("octoscript")`
-- finds this file. Override any field with vim.lsp.config, for example:
--
--   vim.lsp.config("octoscript", {
--     cmd = { "/path/to/venv/bin/octoscript-lsp" },
--     init_options = {
--       octoscript = {
--         toolCatalog = { { name = "text.echo", format = "text", description = "Echo." } },
--       },
--     },
--   })
--   vim.lsp.enable("octoscript")
--
-- vim.lsp.config merges tables key by key, so a catalog given this way
-- replaces only that key of the defaults below.
return {
  cmd = { "octoscript-lsp" },
  filetypes = { "octoscript" },
  root_markers = { ".git" },
  -- initializationOptions.octoscript: the advisory catalogs at start-up
  -- (toolCatalog, moduleCatalog, workflowDataCatalog, workflowDataStepContext).
  -- An empty object means "no catalogs"; vim.empty_dict() keeps it an object
  -- (a plain {} would be sent as a JSON array).
  init_options = { octoscript = vim.empty_dict() },
}
