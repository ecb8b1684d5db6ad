-- faultlens user commands (nothing else happens at start-up; see :help faultlens).
if vim.g.loaded_faultlens then
  return
end
vim.g.loaded_faultlens = true

local function fl()
  return require('faultlens')
end

---@param arglead string
---@return string[]
local function complete_tasks(arglead)
  local out = { 'default' }
  local client = fl().client()
  if client then
    local resp = client:request_sync('faultlens/failures', vim.empty_dict(), 1000)
    for _, f in ipairs(resp and resp.result and resp.result.failures or {}) do
      local t = f.record and f.record.task
      if type(t) == 'string' and not vim.tbl_contains(out, t) then
        out[#out + 1] = t
      end
    end
  end
  return vim.tbl_filter(function(t)
    return vim.startswith(t, arglead)
  end, out)
end

local command = vim.api.nvim_create_user_command

command('FaultlensRun', function(a)
  fl().run(a.args)
end, { nargs = '+', complete = 'shellcmd', desc = 'faultlens: run a command and show its failures' })

command('FaultlensStatus', function()
  fl().status()
end, { nargs = 0, desc = 'faultlens: counts and list of the current failures' })

command('FaultlensLog', function()
  fl().log()
end, { nargs = 0, desc = 'faultlens: open the session log' })

command('FaultlensClear', function(a)
  fl().clear(a.args)
end, { nargs = '?', complete = complete_tasks, desc = 'faultlens: forget a task\'s failures, or all' })

for name, option in pairs({ FaultlensRetry = 'retry', FaultlensSkip = 'skip', FaultlensStop = 'stop' }) do
  command(name, function(a)
    fl().task_option(option, a.args)
  end, { nargs = '?', complete = complete_tasks, desc = 'faultlens: ' .. option .. ' a task' })
end

command('FaultlensQuickfix', function(a)
  require('faultlens.quickfix').show(a.args)
end, { nargs = '?', complete = complete_tasks, desc = 'faultlens: the failures (of one task) in the quickfix list' })

command('FaultlensCI', function(a)
  fl().ci(a.args)
end, {
  nargs = '?',
  desc = 'faultlens: a CI run\'s failed jobs (URL; none: this branch\'s latest run) in the quickfix list',
})

command('FaultlensInstall', function(a)
  require('faultlens.install').install({
    spec = a.args,
    on_done = function(ok)
      if ok and vim.lsp.enable then
        vim.lsp.enable('faultlens') -- attach the buffers already open, with the new server
      end
    end,
  })
end, {
  nargs = '?',
  complete = 'file',
  desc = 'faultlens: install the server in a venv under stdpath("data") (pip spec: default faultlens)',
})
