-- :FaultlensInstall from a checkout of the plugin alone: no faultlens on PATH, a venv under
-- stdpath('data') with the locally built wheel (WHEEL), then a working server from it.
local L = dofile(vim.fs.joinpath(assert(os.getenv('TESTS_NVIM')), 'lib.lua'))
vim.opt.runtimepath:prepend(assert(os.getenv('FAULTLENS_NVIM')))
vim.cmd('runtime plugin/faultlens.lua')
local install = require('faultlens.install')

L.check(vim.fn.exepath('faultlens') == '', 'faultlens is on PATH: ' .. vim.fn.exepath('faultlens'))
L.check(install.resolve().source == 'missing', 'a server before the install: ' .. vim.inspect(install.resolve()))
vim.g.faultlens_python = assert(os.getenv('PYTHON_FOR_VENV'))

local done
vim.api.nvim_create_autocmd('User', {
  pattern = 'FaultlensInstalled',
  callback = function(ev)
    done = ev.data
  end,
})
local notes = {}
local notify = vim.notify
vim.notify = function(msg, level, opts)
  notes[#notes + 1] = msg
  L.say('notify: ' .. msg)
  return notify(msg, level, opts)
end
vim.cmd('FaultlensInstall ' .. vim.fn.fnameescape(assert(os.getenv('WHEEL'))))
L.wait('the install to end', function()
  return done or vim.tbl_contains(notes, function(m)
    return m:find('failed', 1, true)
  end, { predicate = true })
end, 400000)
L.check(done and done.path, 'the install failed: ' .. table.concat(notes, ' | '))
L.check(vim.tbl_contains(notes, function(m)
  return m:find('creating ', 1, true)
end, { predicate = true }), 'no progress was shown')
local r = install.resolve()
L.check(r.source == 'managed' and r.path == done.path, 'not the managed server: ' .. vim.inspect(r))
L.say('installed: ' .. r.path)

-- :checkhealth says which server is used, and that it answers initialize.
require('faultlens').setup({})
vim.cmd('checkhealth faultlens')
local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
L.check(text:find('using the managed environment ' .. install.venv_dir(), 1, true), 'health:\n' .. text)
L.check(text:find('OK the server starts and answers initialize (faultlens ', 1, true), 'health:\n' .. text)
vim.cmd('bwipeout!')

-- The server works: a file opened attaches it; ingested tsc output becomes the diagnostic.
vim.cmd.edit('src/auth/middleware.ts')
L.wait('the client to attach', function()
  return #vim.lsp.get_clients({ name = 'faultlens', bufnr = 0 }) > 0
end, 60000)
local client = vim.lsp.get_clients({ name = 'faultlens' })[1]
L.check(client.config.cmd[1] == r.path, 'client runs ' .. vim.inspect(client.config.cmd))
require('faultlens').ingest(
  "src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'.\n",
  { command = 'tsc -p .', exitCode = 2 }
)
L.wait('the TS2304 diagnostic', function()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.lnum == 41 and d.source == 'faultlens' then
      return true
    end
  end
end, 60000)
L.say('diagnostic at src/auth/middleware.ts:42')
L.pass()
