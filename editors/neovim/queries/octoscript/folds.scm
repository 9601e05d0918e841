; Foldable regions (Neovim's `foldexpr=v:lua.vim.treesitter.foldexpr()`).

[
  (block)
  (record)
  (array)
  (arguments)
  (comment)
] @fold
