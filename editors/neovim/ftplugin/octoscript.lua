-- Buffer options for Octoscript (the formatter's style: 4 spaces, // comments).
vim.bo.commentstring = "// %s"
vim.bo.comments = "s1:/*,mb:*,ex:*/,://"
vim.bo.expandtab = true
vim.bo.shiftwidth = 4
vim.bo.tabstop = 4
vim.b.undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< tabstop<"

-- Read the catalog files `catalogFiles` names again (for clients that do not
-- watch files: Neovim 0.7 to 0.10, or Linux without file watching).
vim.api.nvim_buf_create_user_command(0, "OctoscriptReloadCatalogs", function()
  local params = { command = "octoscript.reloadCatalogs", arguments = {} }
  vim.lsp.buf_request(0, "workspace/executeCommand", params, function() end)
end, { desc = "Read the Octoscript catalog files again" })
vim.b.undo_ftplugin = vim.b.undo_ftplugin .. " | delcommand -buffer OctoscriptReloadCatalogs"
