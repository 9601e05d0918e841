-- Headless Neovim check of the tree-sitter grammar and the plugin's queries.
-- Usage: nvim --headless --clean -l nvim_treesitter.lua <parser.so> <plugin dir> <sample> <out.json>
local parser_path, plugin_dir, sample_path, out_path = unpack(_G.arg)
local result = { version = tostring(vim.version()) }

local ok, err = pcall(function()
  -- The plugin directory provides queries/octoscript/*.scm on the runtimepath.
  vim.opt.runtimepath:prepend(plugin_dir)
  vim.treesitter.language.add("octoscript", { path = parser_path })
  vim.filetype.add({ extension = { octoscript = "octoscript", octo = "octoscript" } })

  vim.cmd.edit(vim.fn.fnameescape(sample_path))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  vim.treesitter.start(buf, "octoscript")

  local parser = vim.treesitter.get_parser(buf, "octoscript")
  local tree = parser:parse()[1]
  result.has_error = tree:root():has_error()
  result.root = tree:root():type()

  -- Every capture at the first character of each marked word.
  result.captures = {}
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for row, line in ipairs(lines) do
    local col = 1
    while true do
      local first, last = line:find("[%w_%.\"]+", col)
      if not first then break end
      local names = {}
      for _, capture in ipairs(vim.treesitter.get_captures_at_pos(buf, row - 1, first - 1)) do
        table.insert(names, capture.capture)
      end
      table.insert(result.captures, { row = row - 1, col = first - 1, text = line:sub(first, last), names = names })
      col = last + 1
    end
  end

  -- The highlighter resolved the query from the runtimepath.
  local query = vim.treesitter.query.get("octoscript", "highlights")
  result.highlight_query_files = query and #vim.treesitter.query.get_files("octoscript", "highlights") or 0
  result.fold_query_files = #vim.treesitter.query.get_files("octoscript", "folds")
  vim.wo.foldmethod = "expr"
  vim.wo.foldexpr = "v:lua.vim.treesitter.foldexpr()"
  result.fold_level_in_body = vim.fn.foldlevel(3)
end)

result.ok = ok
result.error = ok and vim.NIL or tostring(err)
local handle = assert(io.open(out_path, "w"))
handle:write(vim.json.encode(result))
handle:close()
vim.cmd("qall!")
