-- Headless Neovim driver for tests/editors/test_neovim.py.
--
-- Uses only the plugin in editors/neovim: it is put on 'runtimepath' and set
-- up like a user would, in one of two ways ($OCTOSCRIPT_NVIM_MODE):
--   setup   require("octoscript").setup({...})            (Neovim 0.7+)
--   enable  vim.lsp.config(...) + vim.lsp.enable(...)      (Neovim 0.11+,
--           through lsp/octoscript.lua; filetype from ftdetect/)
-- The checks run once the file given on the command
-- line is loaded, every wait is bounded, and the findings are written as JSON
-- to $OCTOSCRIPT_TEST_RESULT before Neovim quits.

local function env(name)
  local value = os.getenv(name)
  if value == nil or value == "" then
    error(name .. " is not set")
  end
  return value
end

local plugin_dir = env("OCTOSCRIPT_NVIM_PLUGIN")
local server_cmd = env("OCTOSCRIPT_LSP_CMD")
local result_path = env("OCTOSCRIPT_TEST_RESULT")
local mode = env("OCTOSCRIPT_NVIM_MODE")
-- Set for the catalog-file run: a path relative to the workspace folder.
local catalog_file = os.getenv("OCTOSCRIPT_NVIM_CATALOG_FILE")

vim.opt.runtimepath:prepend(plugin_dir)
vim.opt.swapfile = false
vim.opt.shadafile = "NONE"

local catalogs = {
  octoscript = {
    toolCatalog = {
      { name = "text.echo", format = "text", description = "Echo." },
    },
  },
}
if catalog_file ~= nil and catalog_file ~= "" then
  -- The catalog comes from a file the settings name, read again when it
  -- changes (lsp/octoscript.lua asks Neovim to offer file watching).
  vim.lsp.config("octoscript", {
    cmd = { server_cmd },
    settings = { octoscript = { catalogFiles = { catalog_file } } },
  })
  vim.lsp.enable("octoscript")
elseif mode == "setup" then
  require("octoscript").setup({ cmd = { server_cmd }, init_options = catalogs })
elseif mode == "enable" then
  -- Only what a user overrides: filetypes, root markers and the rest come
  -- from lsp/octoscript.lua.
  vim.lsp.config("octoscript", { cmd = { server_cmd }, init_options = catalogs })
  vim.lsp.enable("octoscript")
else
  error("unknown OCTOSCRIPT_NVIM_MODE " .. mode)
end

local results = { errors = {} }

local function note_error(stage, err)
  table.insert(results.errors, stage .. ": " .. tostring(err))
end

local function buffer_clients(bufnr)
  local found = {}
  if vim.lsp.get_clients then
    found = vim.lsp.get_clients({ bufnr = bufnr })
  else
    for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
      table.insert(found, client)
    end
  end
  return found
end

local function initialized(client)
  if client.initialized then
    return true
  end
  local caps = client.server_capabilities
  return type(caps) == "table" and next(caps) ~= nil
end

local function uri(bufnr)
  return vim.uri_from_bufnr(bufnr)
end

local CAPABILITY = {
  ["textDocument/completion"] = "completionProvider",
  ["textDocument/hover"] = "hoverProvider",
}

-- Whether an attached octoscript client advertises the provider for `method`
-- (asking an unsupported method would only run into the timeout).
local function advertised(bufnr, method)
  for _, client in ipairs(buffer_clients(bufnr)) do
    local caps = client.server_capabilities or {}
    local provider = caps[CAPABILITY[method]]
    if client.name == "octoscript" and provider ~= nil and provider ~= false and provider ~= vim.NIL then
      return true
    end
  end
  return false
end

-- The first non-error result of a synchronous request, plus any error text.
local function request(bufnr, method, params, timeout)
  if not advertised(bufnr, method) then
    return nil, "the server does not advertise " .. CAPABILITY[method] .. " for " .. method
  end
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
  if responses == nil then
    return nil, tostring(err or "no response")
  end
  local errors = {}
  for _, response in pairs(responses) do
    if response.err or response.error then
      table.insert(errors, vim.inspect(response.err or response.error))
    elseif response.result ~= nil then
      return response.result, nil
    end
  end
  if #errors > 0 then
    return nil, table.concat(errors, "; ")
  end
  return nil, "empty result"
end

local function hover_text(contents)
  if contents == nil or contents == vim.NIL then
    return ""
  end
  if type(contents) == "string" then
    return contents
  end
  if contents.value ~= nil then
    return tostring(contents.value)
  end
  local parts = {}
  for _, item in ipairs(contents) do
    table.insert(parts, hover_text(item))
  end
  return table.concat(parts, "\n")
end

-- Find the 0-based position of `needle` on a buffer line (plus an offset).
local function position_of(bufnr, needle, offset)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for index, line in ipairs(lines) do
    local start = line:find(needle, 1, true)
    if start then
      return { line = index - 1, character = start - 1 + (offset or 0) }
    end
  end
  return nil
end

-- The result of `method` at `offset` characters into the first `needle`.
local function request_at(bufnr, method, needle, offset)
  local position = position_of(bufnr, needle, offset)
  assert(position, needle .. " not found in the test file")
  local result, request_err = request(bufnr, method, {
    textDocument = { uri = uri(bufnr) },
    position = position,
  }, 8000)
  if request_err then
    error(request_err)
  end
  return result
end

local function completion_labels(bufnr)
  local result = request_at(bufnr, "textDocument/completion", 'tool.call("', #'tool.call("')
  local labels = {}
  for _, item in ipairs(result.items or result) do
    table.insert(labels, item.label)
  end
  return labels
end

local function contains(list, wanted)
  for _, value in ipairs(list) do
    if value == wanted then
      return true
    end
  end
  return false
end

-- Rewrite the catalog file on disk and wait for the new tool to be offered.
local function reload_after_rewrite(bufnr)
  local path = vim.fn.getcwd() .. "/" .. catalog_file
  local file = assert(io.open(path, "w"))
  file:write(vim.fn.json_encode({
    { name = "text.echo", format = "text", description = "Echo." },
    { name = "text.shout", format = "text", description = "Shout." },
  }))
  file:close()
  local started = vim.loop.hrtime()
  local labels = {}
  local seen = vim.wait(5000, function()
    labels = completion_labels(bufnr)
    return contains(labels, "text.shout")
  end, 100)
  results.reloaded_labels = labels
  results.reload_seen = seen
  results.reload_ms = (vim.loop.hrtime() - started) / 1e6
end

-- Non-ASCII text ($OCTOSCRIPT_NVIM_SCENARIO=unicode). The file is
--   use mod.tool
--   let s = "é😀—中"; let x = 1
--   let y = x + 1
-- `y` is typed behind each `x` (the first after an astral character and an
-- em dash); definition, rename and diagnostics then go through Neovim's own
-- conversions in the client's offset encoding, and where they land is read
-- from the buffer and the cursor (byte columns).

local function octoscript_client(bufnr)
  for _, client in ipairs(buffer_clients(bufnr)) do
    if client.name == "octoscript" then
      return client
    end
  end
  return nil
end

local function buffer_line(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
end

-- Put the cursor on the first `needle` of (0-based) line `row`.
local function cursor_to(bufnr, row, needle)
  local start = buffer_line(bufnr, row):find(needle, 1, true)
  assert(start, needle .. " not on line " .. row)
  vim.api.nvim_win_set_cursor(0, { row + 1, start - 1 })
end

local function sync_request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, 8000)
  assert(responses, tostring(err or "no response"))
  for _, response in pairs(responses) do
    assert(not (response.err or response.error), vim.inspect(response.err or response.error))
    if response.result ~= nil then
      return response.result
    end
  end
  error("empty result for " .. method)
end

local function diagnostics_now(bufnr)
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    local line = buffer_line(bufnr, diagnostic.lnum) or ""
    local end_col = diagnostic.end_lnum == diagnostic.lnum and diagnostic.end_col or #line
    table.insert(found, {
      lnum = diagnostic.lnum,
      col = diagnostic.col,
      end_col = end_col,
      text = line:sub(diagnostic.col + 1, end_col),
      rest = line:sub(diagnostic.col + 1),
      message = diagnostic.message,
    })
  end
  return found
end

-- Append `line` and wait for a diagnostic whose message holds `wanted`.
local function diagnostics_after_appending(bufnr, line, wanted)
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { line })
  vim.wait(10000, function()
    for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
      if diagnostic.message:find(wanted, 1, true) then
        return true
      end
    end
    return false
  end, 50)
  vim.wait(1000, function()
    return false
  end, 50)
  return diagnostics_now(bufnr)
end

local function run_unicode(bufnr)
  local client = assert(octoscript_client(bufnr), "no octoscript client")
  local encoding = client.offset_encoding
  results.offset_encoding = encoding
  results.server_position_encoding = (client.server_capabilities or {}).positionEncoding

  -- 1. Typing: `y` behind the `x` of line 2 (after é😀—中) and of line 3.
  cursor_to(bufnr, 1, "x = 1")
  vim.cmd("normal! ay")
  cursor_to(bufnr, 2, "x + 1")
  vim.cmd("normal! ay")
  local symbols = sync_request(bufnr, "textDocument/documentSymbol", {
    textDocument = { uri = uri(bufnr) },
  })
  results.unicode_symbols = {}
  for _, symbol in ipairs(symbols) do
    table.insert(results.unicode_symbols, symbol.name)
  end

  -- 2. Definition of the `xy` on line 3, shown by Neovim's own jump.
  cursor_to(bufnr, 2, "xy + 1")
  local locations = sync_request(bufnr, "textDocument/definition",
    vim.lsp.util.make_position_params(0, encoding))
  local location = locations[1] or locations
  results.definition_character = (location.range or location.targetSelectionRange).start.character
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  if vim.lsp.util.show_document then
    vim.lsp.util.show_document(location, encoding, { focus = true })
  else
    vim.lsp.util.jump_to_location(location, encoding)
  end
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  results.definition_cursor = { row - 1, col, buffer_line(bufnr, row - 1):sub(col + 1) }

  -- 3. Rename at the declaration, the edit applied by Neovim.
  cursor_to(bufnr, 1, "xy = 1")
  local params = vim.lsp.util.make_position_params(0, encoding)
  params.newName = "total"
  vim.lsp.util.apply_workspace_edit(sync_request(bufnr, "textDocument/rename", params), encoding)
  results.text_after_rename = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")
    .. "\n"

  -- 4. A warning with a range (a tool the catalog does not list), then a
  -- syntax error: each after an astral character and an em dash.
  results.unicode_warnings = diagnostics_after_appending(bufnr,
    'let o = "😀—"; let r = tool.call("text.nope", "")', "text.nope")
  results.unicode_errors = diagnostics_after_appending(bufnr,
    'let t = "😀—" + ) + 1', "expected an expression")
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  results.log_path = vim.lsp.get_log_path and vim.lsp.get_log_path() or nil
  results.nvim_version = tostring(vim.version().major) .. "." .. tostring(vim.version().minor)
    .. "." .. tostring(vim.version().patch)
  results.buffer_name = vim.api.nvim_buf_get_name(bufnr)
  results.filetype = vim.api.nvim_buf_get_option(bufnr, "filetype")
  results.commentstring = vim.api.nvim_buf_get_option(bufnr, "commentstring")

  -- 1. attach
  local attached = vim.wait(15000, function()
    for _, client in ipairs(buffer_clients(bufnr)) do
      if client.name == "octoscript" and initialized(client) then
        return true
      end
    end
    return false
  end, 50)
  results.attached = attached
  results.client_names = {}
  for _, client in ipairs(buffer_clients(bufnr)) do
    table.insert(results.client_names, client.name)
  end
  if not attached then
    note_error("attach", "no initialized octoscript client within 15 s")
    return
  end
  results.initial_diagnostics = #vim.diagnostic.get(bufnr)
  if os.getenv("OCTOSCRIPT_NVIM_SCENARIO") == "unicode" then
    local ok, err = pcall(run_unicode, bufnr)
    if not ok then
      note_error("unicode", err)
    end
    return
  end

  -- 2. tool-name completion inside tool.call("")
  local ok, err = pcall(function()
    results.completion_labels = completion_labels(bufnr)
  end)
  if not ok then
    note_error("completion", err)
  end
  if catalog_file ~= nil and catalog_file ~= "" then
    ok, err = pcall(reload_after_rewrite, bufnr)
    if not ok then
      note_error("reload", err)
    end
  end

  -- 3. hover on the `let` binding name
  ok, err = pcall(function()
    local result = request_at(bufnr, "textDocument/hover", "let greeting", #"let ")
    results.hover = hover_text(result.contents)
  end)
  if not ok then
    note_error("hover", err)
  end

  -- 4. an edit with one syntax error must show exactly one diagnostic, also
  -- once every pushed and pulled report has had time to arrive
  ok, err = pcall(function()
    vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { "let v = true and false" })
    local seen = vim.wait(10000, function()
      return #vim.diagnostic.get(bufnr) > 0
    end, 50)
    vim.wait(1500, function()
      return false
    end, 50)
    local messages = {}
    for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
      table.insert(messages, {
        message = diagnostic.message,
        lnum = diagnostic.lnum,
        source = diagnostic.source,
      })
    end
    results.diagnostics_after_edit = messages
    results.diagnostic_seen = seen
  end)
  if not ok then
    note_error("diagnostic", err)
  end
end

local function finish()
  local file = io.open(result_path, "w")
  if file then
    file:write(vim.fn.json_encode(results))
    file:close()
  end
  vim.cmd("qall!")
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(run)
      if not ok then
        note_error("driver", err)
      end
      finish()
    end)
  end,
})
