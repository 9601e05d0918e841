-- Headless Neovim driver for tests/editors/test_neovim_actions.py: the fix-all
-- action as docs/editors.md runs it (`vim.lsp.buf.code_action` with
-- `only = { "source.fixAll.octoscript" }`, `apply = true`), then a tool-call
-- lens run with `vim.lsp.codelens.run()`. Every wait is bounded; what was
-- seen is written as JSON to $OCTOSCRIPT_TEST_RESULT before Neovim quits.

local function env(name)
  local value = os.getenv(name)
  assert(value ~= nil and value ~= "", name .. " is not set")
  return value
end

local result_path = env("OCTOSCRIPT_TEST_RESULT")
vim.opt.runtimepath:prepend(env("OCTOSCRIPT_NVIM_PLUGIN"))
vim.opt.swapfile = false
vim.opt.shadafile = "NONE"
vim.lsp.config("octoscript", {
  cmd = { env("OCTOSCRIPT_LSP_CMD") },
  init_options = {
    octoscript = { toolCatalog = { { name = "text.echo", format = "text", description = "Echo." } } },
  },
})
vim.lsp.enable("octoscript")

-- From docs/editors.md ("Fix all on save", Neovim): fixes before each write.
vim.api.nvim_create_autocmd("BufWritePre", {
  pattern = { "*.octoscript", "*.octo" },
  callback = function(args)
    local client = vim.lsp.get_clients({ bufnr = args.buf, name = "octoscript" })[1]
    if client == nil then
      return
    end
    local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
    params.context = { only = { "source.fixAll.octoscript" }, diagnostics = {} }
    local answer = client:request_sync("textDocument/codeAction", params, 2000, args.buf)
    for _, action in ipairs(answer and answer.result or {}) do
      if action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
      end
    end
  end,
})

local results = { errors = {}, notified = {} }
-- window/showMessage reaches the user through vim.notify.
vim.notify = function(message)
  table.insert(results.notified, message)
end
-- Two lenses share a call's line (the tool call and its module call): take the first.
vim.ui.select = function(items, _, on_choice)
  on_choice(items[1], 1)
end

local function finish()
  local file = assert(io.open(result_path, "w"))
  file:write(vim.json.encode(results))
  file:close()
  vim.cmd("qall!")
end

local function step(name, fn)
  local ok, err = pcall(fn)
  if not ok then
    table.insert(results.errors, name .. ": " .. tostring(err))
  end
  return ok
end

local function run_steps(bufnr)
  local before = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  step("fix-all", function()
    vim.lsp.buf.code_action({
      context = { only = { "source.fixAll.octoscript" }, diagnostics = {} },
      apply = true,
    })
  end)
  vim.wait(10000, function()
    return not vim.deep_equal(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), before)
  end, 20)
  results.fixed = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  step("lenses", function()
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  end)
  vim.wait(10000, function()
    return #vim.lsp.codelens.get(bufnr) > 0
  end, 20)
  results.lenses = {}
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(results.lenses, lens.command and lens.command.title or vim.NIL)
  end
  step("run lens", function()
    vim.api.nvim_win_set_cursor(0, { tonumber(env("OCTOSCRIPT_LENS_LINE")), 0 })
    vim.lsp.codelens.run()
  end)
  vim.wait(10000, function()
    return #results.notified > 0
  end, 20)
  -- A new line to fix, then a write: the autocommand fixes it first.
  step("write", function()
    vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { "var later = 'x'" })
    vim.cmd("write")
  end)
  finish()
end

-- Scheduled: run inside the LspAttach autocommand, `:write` would not fire
-- BufWritePre (autocommands do not nest).
vim.api.nvim_create_autocmd("LspAttach", {
  once = true,
  callback = function(args)
    vim.schedule(function()
      run_steps(args.buf)
    end)
  end,
})

vim.defer_fn(function()
  table.insert(results.errors, "timed out")
  finish()
end, 40000)
