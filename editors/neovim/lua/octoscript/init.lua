-- Octoscript support for Neovim 0.7 to 0.10 (it works on newer ones too).
--
-- On Neovim 0.11+ prefer the built-in configuration: with this directory on
-- the 'runtimepath', `vim.lsp.enable("octoscript")` uses lsp/octoscript.lua,
-- and ftdetect/ + ftplugin/ give the filetype and its buffer options.
--
--   require("octoscript").setup({
--     cmd = { "octoscript-lsp" },              -- server command (default)
--     init_options = { octoscript = { toolCatalog = { ... } } },
--     settings = { octoscript = { ... } },      -- sent via workspace/didChangeConfiguration
--     root_markers = { ".git" },               -- optional
--     on_attach = function(client, bufnr) end, -- optional
--     on_init = function(client, result) end,  -- optional
--     capabilities = nil,                      -- optional client capabilities
--   })
--
-- setup() registers the `octoscript` filetype for *.octoscript and *.octo (for
-- set-ups that add this directory to the runtimepath after start-up) and starts (or reuses) one language client per root directory for every
-- buffer of that filetype.

local M = {}

local FILETYPE = "octoscript"
local EXTENSIONS = { "octoscript", "octo" }
local NAME = "octoscript"

local defaults = {
  cmd = { "octoscript-lsp" },
  init_options = nil,
  settings = nil,
  root_markers = { ".git" },
  on_attach = nil,
  on_init = nil,
  capabilities = nil,
}

M.config = nil
-- root directory -> client id (Neovim 0.7 path only; vim.lsp.start reuses itself).
local clients_by_root = {}
local augroup = nil

local function merged(opts)
  local config = {}
  for key, value in pairs(defaults) do
    config[key] = value
  end
  for key, value in pairs(opts or {}) do
    config[key] = value
  end
  return config
end

local uv = vim.loop

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ":h")
end

-- The nearest ancestor of the buffer's file holding one of the markers, else
-- the file's own directory (else the current working directory).
local function find_root(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return uv.cwd()
  end
  local start = dirname(vim.fn.fnamemodify(name, ":p"))
  local dir = start
  while dir and dir ~= "" do
    for _, marker in ipairs(markers or {}) do
      if exists(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      break
    end
    dir = parent
  end
  return start
end

-- Client methods became `client:method()` in Neovim 0.11; older versions
-- only have the `client.method()` form.
local function notify(client, method, params)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

-- Neovim applies versioned `documentChanges` (an edit made for an older
-- buffer version is skipped) but does not announce it, and the server
-- offers rename only to clients that do. Neovim 0.7 takes `capabilities` as
-- the whole set, so the defaults are filled in here.
local EDIT_CAPABILITIES = { workspace = { workspaceEdit = { documentChanges = true } } }

local function client_capabilities(user)
  return vim.tbl_deep_extend(
    "force",
    vim.lsp.protocol.make_client_capabilities(),
    EDIT_CAPABILITIES,
    user or {}
  )
end

local function client_config(config, root)
  return {
    name = NAME,
    cmd = config.cmd,
    root_dir = root,
    workspace_folders = {
      { uri = vim.uri_from_fname(root), name = root },
    },
    init_options = config.init_options,
    -- Neovim answers workspace/configuration requests from `settings`; the
    -- server reads them from workspace/didChangeConfiguration, sent in
    -- on_init below ({ settings = { octoscript = { ... } } }).
    settings = config.settings or {},
    capabilities = client_capabilities(config.capabilities),
    on_attach = config.on_attach,
    on_init = function(client, result)
      local settings = config.settings
      if type(settings) == "table" and next(settings) ~= nil then
        notify(client, "workspace/didChangeConfiguration", { settings = settings })
      end
      if config.on_init then
        config.on_init(client, result)
      end
    end,
  }
end

local function client_alive(id)
  local client = id and vim.lsp.get_client_by_id(id)
  return client ~= nil and not client.is_stopped()
end

--- Start (or reuse) the octoscript client for a buffer.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local config = M.config or merged(nil)
  if vim.api.nvim_buf_get_option(bufnr, "buftype") ~= "" then
    return nil
  end
  local root = find_root(bufnr, config.root_markers)

  if vim.lsp.start then
    return vim.lsp.start(client_config(config, root), { bufnr = bufnr })
  end

  -- Neovim 0.7: one client per root, attached explicitly.
  local id = clients_by_root[root]
  if not client_alive(id) then
    id = vim.lsp.start_client(client_config(config, root))
    if not id then
      vim.notify("octoscript: could not start " .. table.concat(config.cmd, " "), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Replace the settings and push them to every running octoscript client as
--- workspace/didChangeConfiguration ({ settings = settings }). Use vim.NIL for
--- a JSON null (which clears that catalog on the server).
function M.update_settings(settings)
  if M.config then
    M.config.settings = settings
  end
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in pairs(get()) do
    if client.name == NAME then
      client.config.settings = settings
      notify(client, "workspace/didChangeConfiguration", { settings = settings })
    end
  end
end

local function register_filetype()
  if vim.filetype and vim.filetype.add then
    local extension = {}
    for _, ext in ipairs(EXTENSIONS) do
      extension[ext] = FILETYPE
    end
    vim.filetype.add({ extension = extension })
  end
  -- Neovim 0.7 only consults vim.filetype.add() when filetype.lua is enabled,
  -- so older versions also get a plain autocommand.
  if vim.fn.has("nvim-0.8") == 0 then
    local patterns = {}
    for _, ext in ipairs(EXTENSIONS) do
      table.insert(patterns, "*." .. ext)
    end
    vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
      group = augroup,
      pattern = patterns,
      callback = function(args)
        vim.api.nvim_buf_set_option(args.buf, "filetype", FILETYPE)
      end,
    })
  end
end

local function matches_extension(name)
  for _, ext in ipairs(EXTENSIONS) do
    if name:sub(-(#ext + 1)) == "." .. ext then
      return true
    end
  end
  return false
end

function M.setup(opts)
  M.config = merged(opts)
  augroup = vim.api.nvim_create_augroup("octoscript", { clear = true })
  register_filetype()
  vim.api.nvim_create_autocmd("FileType", {
    group = augroup,
    pattern = FILETYPE,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- Buffers that were loaded before setup() ran.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      local name = vim.api.nvim_buf_get_name(bufnr)
      local ft = vim.api.nvim_buf_get_option(bufnr, "filetype")
      if ft == FILETYPE then
        M.attach(bufnr)
      elseif ft == "" and matches_extension(name) then
        vim.api.nvim_buf_set_option(bufnr, "filetype", FILETYPE)
      end
    end
  end
end

return M
