--- `:checkhealth faultlens`: Neovim's version, the faultlens executable, and whether the
--- server answers `initialize`.

local M = {}

local health = vim.health

--- The server command of the resolved config.
---@return string[]?
local function server_cmd()
  local cfg = vim.lsp.config and vim.lsp.config.faultlens
  local cmd = cfg and cfg.cmd
  if type(cmd) == 'table' then
    return cmd
  end
  return nil
end

--- One LSP message framed for stdio.
---@param msg table
---@return string
local function frame(msg)
  local body = vim.json.encode(msg)
  return ('Content-Length: %d\r\n\r\n%s'):format(#body, body)
end

--- Start the server, ask `initialize`, then `shutdown` and `exit`; returns its serverInfo.
---@param cmd string[]
---@return table? server_info
---@return string? problem
local function probe(cmd)
  local input = table.concat({
    frame({ jsonrpc = '2.0', id = 1, method = 'initialize', params = {
      processId = vim.NIL, rootUri = vim.NIL, capabilities = vim.empty_dict(),
    } }),
    frame({ jsonrpc = '2.0', id = 2, method = 'shutdown' }),
    frame({ jsonrpc = '2.0', method = 'exit' }),
  })
  local ok, proc = pcall(vim.system, cmd, { stdin = input, text = true, timeout = 15000 })
  if not ok then
    return nil, tostring(proc)
  end
  local res = proc:wait()
  local out = res.stdout or ''
  for body in out:gmatch('\r?\n\r?\n(%b{})') do
    local decoded_ok, msg = pcall(vim.json.decode, body)
    if decoded_ok and type(msg) == 'table' and msg.id == 1 then
      if msg.result and msg.result.capabilities then
        return msg.result.serverInfo or {}, nil
      end
      return nil, 'initialize failed: ' .. vim.inspect(msg.error)
    end
  end
  local why = res.signal == 15 and 'timed out' or ('exit ' .. tostring(res.code))
  return nil, ('no answer to initialize (%s): %s'):format(why, vim.trim(res.stderr or ''):sub(1, 400))
end

function M.check()
  health.start('Neovim')
  local v = vim.version()
  local shown = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. shown .. ' (vim.lsp.config / vim.lsp.enable available)')
  else
    health.error('Neovim ' .. shown .. ' is too old', { 'faultlens needs Neovim 0.11 or newer' })
  end

  health.start('faultlens server')
  local cmd = server_cmd()
  if not cmd then
    health.error('no `faultlens` LSP config', {
      'add editors/nvim to the runtimepath (or install the plugin), then require("faultlens").setup{}',
    })
    return
  end
  local exe = vim.fn.exepath(cmd[1])
  local install = require('faultlens.install')
  if exe == '' then
    health.error(('`%s` not found on PATH, and no managed environment'):format(cmd[1]), {
      ':FaultlensInstall (a venv under ' .. install.venv_dir() .. ')',
      'or pip install faultlens (pipx install faultlens)',
      "or point setup{ cmd = { '/path/to/faultlens', 'serve' } } at it",
    })
    return
  end
  local where = {
    path = 'faultlens on PATH',
    managed = 'the managed environment ' .. install.venv_dir() .. ' (:FaultlensInstall)',
    setup = 'setup{ cmd = ... }',
  }
  local resolved = install.resolve()
  local source = exe == resolved.path and where[resolved.source] or 'the faultlens LSP config'
  health.info(('using %s: %s'):format(source, exe))
  local ver = vim.system({ exe, '--version' }, { text = true }):wait(10000)
  if ver.code == 0 then
    health.ok(('%s: %s'):format(exe, vim.trim(ver.stdout or '')))
  else
    health.warn(('%s --version failed (exit %s)'):format(exe, tostring(ver.code)))
  end

  local info, problem = probe(vim.list_extend({ exe }, vim.list_slice(cmd, 2)))
  if info then
    health.ok(('the server starts and answers initialize (%s %s)'):format(
      info.name or '?', info.version or '?'))
  else
    health.error('the server did not start: ' .. (problem or '?'), {
      ('run `%s` in a terminal to see its error'):format(table.concat(cmd, ' ')),
    })
  end

  local clients = vim.lsp.get_clients({ name = 'faultlens' })
  if #clients == 0 then
    health.info('no faultlens client running (it starts when a file is opened, or on :FaultlensRun)')
  end
  for _, c in ipairs(clients) do
    health.info(('client %d running, root %s, position encoding %s'):format(
      c.id, c.root_dir or '(none)', c.offset_encoding))
  end
end

return M
