-- Shared helpers of the real-Neovim tests (loaded with dofile by each script).
-- Every script prints "step: ..." lines while it goes and ends with "PASS" (or "FAIL: why",
-- exit 1): headless Neovim exits 0 when a prompt reads EOF, so the PASS line is what counts.
local L = {}

local t0 = vim.uv.hrtime()

---@param msg string
function L.say(msg)
  io.stdout:write(('[%6d ms] %s\n'):format((vim.uv.hrtime() - t0) / 1e6, msg))
  io.stdout:flush()
end

---@param msg string
function L.fail(msg)
  io.stdout:write('FAIL: ' .. msg .. '\n')
  io.stdout:flush()
  os.exit(1)
end

--- Any prompt is a failure unless a step expects one (L.expect_prompt).
L.prompts = {}
L.prompt_ok = false
vim.ui.select = function(items, opts, on_choice)
  if not L.prompt_ok then
    L.fail(('unexpected vim.ui.select (%s) with %d items'):format(opts and opts.prompt or '', #items))
  end
  L.prompts[#L.prompts + 1] = { prompt = opts and opts.prompt, items = items }
  on_choice(nil) -- dismissed: the test decides nothing for the user
end
vim.ui.input = function(opts)
  L.fail('unexpected vim.ui.input: ' .. vim.inspect(opts))
end

---@param what string
---@param cond fun(): any
---@param ms? integer
function L.wait(what, cond, ms)
  local value
  local ok = vim.wait(ms or 20000, function()
    value = cond()
    return value ~= nil and value ~= false
  end, 20)
  if not ok then
    L.fail('timed out waiting for ' .. what)
  end
  return value
end

---@param cond any
---@param msg string
function L.check(cond, msg)
  if not cond then
    L.fail(msg)
  end
end

--- The plugin, loaded the way a plugin manager would (runtimepath + plugin/), and set up.
---@param extra? table
function L.setup(extra)
  vim.opt.runtimepath:prepend(assert(os.getenv('FAULTLENS_NVIM')))
  vim.cmd('runtime plugin/faultlens.lua')
  vim.cmd('filetype on') -- -u NONE leaves filetype detection off; vim.lsp.enable needs FileType
  local opts = vim.tbl_deep_extend('force', {
    cmd = { assert(os.getenv('FAULTLENS')), 'serve' },
  }, extra or {})
  require('faultlens').setup(opts)
end

--- faultlens diagnostics of a file (by path relative to the cwd).
---@param rel string
---@return vim.Diagnostic[]
function L.diags(rel)
  local buf = vim.fn.bufnr(vim.fn.fnamemodify(rel, ':p'))
  if buf < 0 then
    return {}
  end
  return vim.tbl_filter(function(d)
    return d.source == 'faultlens'
  end, vim.diagnostic.get(buf))
end

---@param rel string
---@return string
function L.read(rel)
  return table.concat(vim.fn.readfile(rel), '\n')
end

--- Open a file and wait until the faultlens client is attached to it.
---@param rel string
---@return integer bufnr
---@return vim.lsp.Client
function L.open(rel)
  vim.cmd.edit(vim.fn.fnameescape(rel))
  local buf = vim.api.nvim_get_current_buf()
  local client = L.wait(rel .. ' attached', function()
    return vim.lsp.get_clients({ bufnr = buf, name = 'faultlens' })[1]
  end)
  return buf, client
end

function L.pass()
  for _, c in ipairs(vim.lsp.get_clients()) do
    c:stop()
  end
  vim.wait(3000, function()
    return #vim.lsp.get_clients() == 0
  end, 20)
  io.stdout:write('PASS\n')
  io.stdout:flush()
  os.exit(0)
end

return L
