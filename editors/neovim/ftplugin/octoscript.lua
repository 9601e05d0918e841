-- Buffer options for Octoscript (the formatter's style: 4 spaces, // comments).
vim.bo.commentstring = "// %s"
vim.bo.comments = "s1:/*,mb:*,ex:*/,://"
vim.bo.expandtab = true
vim.bo.shiftwidth = 4
vim.bo.tabstop = 4
vim.b.undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< tabstop<"
