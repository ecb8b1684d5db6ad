--- faultlens for Neovim: the built-in LSP client talking to `faultlens serve`.
---
--- `require('faultlens').setup{}` registers the server with `vim.lsp.config` /
--- `vim.lsp.enable` (Neovim 0.11+) and forwards `:make` output to it.  The
--- functions below back the user commands of plugin/faultlens.lua; everything
--- the server does (classifying, recipes, the ledger) stays in the server.

local M = {}

local NAME = 'faultlens'

---@class faultlens.Opts
---@field cmd? string[] Server command (default `{ 'faultlens', 'serve' }`).
---@field settings? table<string, any> The server's settings (`workspace/configuration` section `faultlens`).
---@field init_options? table<string, any> `initializationOptions` (e.g. `{ diagnosticMode = 'pull' }`).
---@field root_markers? string[] Files or folders marking the workspace root.
---@field forward_make? boolean Send the output of `:make` / `:lmake` to the server (default true).
---@field progress? boolean Echo the progress of faultlens runs (default true).
---@field quickfix? boolean Keep one quickfix list per task in sync with its failures (default false).
---@field timeout_ms? integer How long to wait for the server to start (default 15000).

---@type faultlens.Opts
local defaults = {
  forward_make = true,
  progress = true,
  timeout_ms = 15000,
}

---@type faultlens.Opts
M.options = vim.deepcopy(defaults)

---@param msg string
---@param level? integer
local function notify(msg, level)
  vim.notify(msg, level or vim.log.levels.INFO, { title = NAME })
end

--- Register and enable the server, and set up the autocommands.
---@param opts? faultlens.Opts
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  local o = M.options
  ---@type vim.lsp.Config
  local cfg = {}
  -- setup{ cmd = ... }, else faultlens on PATH, else the :FaultlensInstall environment.
  local exe = require('faultlens.install').resolve(o.cmd)
  if exe.source ~= 'missing' then
    cfg.cmd = exe.cmd
  end
  if o.settings then
    cfg.settings = { faultlens = o.settings }
  end
  if o.init_options then
    cfg.init_options = o.init_options
  end
  if o.root_markers then
    cfg.root_markers = o.root_markers
  end
  if next(cfg) then
    vim.lsp.config(NAME, cfg)
  end
  vim.lsp.enable(NAME)

  for _, name in ipairs({ 'faultlens.applyRecipe', 'faultlens.markReviewed' }) do
    vim.lsp.commands[name] = M._follow_up
  end

  local group = vim.api.nvim_create_augroup('faultlens', { clear = true })
  if o.forward_make then
    vim.api.nvim_create_autocmd('QuickFixCmdPre', {
      group = group,
      pattern = { 'make', 'lmake' },
      desc = 'faultlens: capture the output of :make',
      callback = M._before_make,
    })
    vim.api.nvim_create_autocmd('QuickFixCmdPost', {
      group = group,
      pattern = { 'make', 'lmake' },
      desc = 'faultlens: send the output of :make to the server',
      callback = M._after_make,
    })
  end
  if o.quickfix then
    require('faultlens.quickfix').enable(group)
  end
  if o.progress then
    vim.api.nvim_create_autocmd('LspProgress', {
      group = group,
      desc = 'faultlens: show the progress of runs',
      callback = M._on_progress,
    })
  end
end

-- -- clients -----------------------------------------------------------------------------

--- The running faultlens client for the current directory (or any running one).
---@return vim.lsp.Client?
function M.client()
  local clients = vim.lsp.get_clients({ name = NAME })
  local cwd = vim.fs.normalize(vim.fn.getcwd())
  local best, best_len = nil, -1
  for _, c in ipairs(clients) do
    local root = c.root_dir and vim.fs.normalize(c.root_dir)
    if root and (cwd == root or vim.startswith(cwd, root .. '/')) and #root > best_len then
      best, best_len = c, #root
    end
  end
  return best or clients[1]
end

--- The resolved server config, with a concrete root for the current buffer.
---@return vim.lsp.Config?
local function resolved_config()
  local cfg = vim.lsp.config[NAME]
  if not cfg then
    return nil
  end
  cfg = vim.deepcopy(cfg)
  cfg.name = NAME
  local markers = cfg.root_markers or { '.faultlens', '.git' }
  cfg.root_dir = vim.fs.root(0, markers) or vim.fn.getcwd()
  return cfg
end

--- Call `fn` with an initialized client, starting the server first if none runs.
---@param fn fun(client: vim.lsp.Client)
function M.with_client(fn)
  local client = M.client()
  if not client then
    local cfg = resolved_config()
    if not cfg then
      notify('faultlens: no server config (is editors/nvim on the runtimepath?)', vim.log.levels.ERROR)
      return
    end
    local buf = vim.api.nvim_get_current_buf()
    local attach = vim.bo[buf].buftype == '' and vim.api.nvim_buf_get_name(buf) ~= ''
    local id = vim.lsp.start(cfg, { bufnr = buf, attach = attach })
    client = id and vim.lsp.get_client_by_id(id) or nil
    if not client then
      notify('faultlens: the server did not start (see :checkhealth faultlens)', vim.log.levels.ERROR)
      return
    end
  end
  if client.initialized then
    fn(client)
    return
  end
  local waited, step = 0, 20
  local timer = assert(vim.uv.new_timer())
  timer:start(step, step, vim.schedule_wrap(function()
    waited = waited + step
    if client.initialized or client:is_stopped() or waited >= (M.options.timeout_ms or 15000) then
      timer:stop()
      timer:close()
      if client.initialized then
        fn(client)
      else
        notify('faultlens: the server did not initialize', vim.log.levels.ERROR)
      end
    end
  end))
end

---@param client vim.lsp.Client
---@param command string
---@param args table
---@param on_result? fun(result: any)
local function execute(client, command, args, on_result)
  if next(args) == nil then
    args = vim.empty_dict() -- an empty Lua table would be sent as `[]`
  end
  client:request('workspace/executeCommand', { command = command, arguments = { args } },
    function(err, result)
      if err then
        notify(('faultlens: %s failed: %s'):format(command, err.message or vim.inspect(err)),
          vim.log.levels.ERROR)
        return
      end
      if on_result then
        on_result(result)
      end
    end)
end

--- The workspace-relative form of the current directory (the server keeps runs inside it).
---@param client vim.lsp.Client
---@return string?
local function run_cwd(client)
  local cwd = vim.fs.normalize(vim.fn.getcwd())
  local root = client.root_dir and vim.fs.normalize(client.root_dir)
  if not root or cwd == root then
    return nil
  end
  if vim.startswith(cwd, root .. '/') then
    return cwd:sub(#root + 2)
  end
  return nil
end

--- Buffers holding exactly what is on disk are marked written.  The server writes a
--- recipe's edit to disk too (it verifies by re-running the build, which reads the
--- disk), so without this Neovim would warn that the file changed (W12).
function M._settle_buffers()
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(buf)
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].modified and vim.bo[buf].buftype == ''
      and name ~= '' and vim.fn.filereadable(name) == 1
      and vim.deep_equal(vim.fn.readfile(name), vim.api.nvim_buf_get_lines(buf, 0, -1, false))
    then
      vim.api.nvim_buf_call(buf, function()
        vim.cmd('silent noautocmd keepalt write!')
      end)
    end
  end
end

--- The follow-up command of a faultlens code action (`faultlens.applyRecipe`,
--- `faultlens.markReviewed`): sent to the server, then the outcome is shown.
---@param command lsp.Command
---@param ctx { client_id: integer, bufnr: integer }
function M._follow_up(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    return
  end
  execute(client, command.command, (command.arguments or {})[1] or {}, function(result)
    M._settle_buffers()
    result = result or {}
    local what = result.result or (result.reviewed ~= nil and 'reviewed') or 'done'
    local why = (result.reason and result.reason ~= vim.NIL) and (': ' .. result.reason) or ''
    notify(('faultlens: %s%s'):format(what, why),
      what == 'escalated' and vim.log.levels.WARN or vim.log.levels.INFO)
    vim.api.nvim_exec_autocmds('User', { pattern = 'FaultlensRecipeDone', data = result })
  end)
end

-- -- commands ----------------------------------------------------------------------------

---@class faultlens.RunResult
---@field task string
---@field exitCode integer?
---@field failures integer
---@field lines integer?
---@field seconds number?
---@field log string?
---@field error string?
---@field watch boolean? The command is a watcher followed per cycle (it keeps running).
---@field watcher string? Whose cycle banners it is followed by (tsc, vitest, ...).

--- Run a command through the server (`faultlens.run`): its output is classified
--- and the failures become diagnostics.  Fires `User FaultlensRunDone` with the result.
---@param cmd string|string[] The command: argv list, or a string split like a shell would (never run by one).
---@param opts? { task?: string, cwd?: string }
function M.run(cmd, opts)
  opts = opts or {}
  M.with_client(function(client)
    local args = { command = cmd, task = opts.task, cwd = opts.cwd or run_cwd(client) }
    local shown = type(cmd) == 'table' and table.concat(cmd, ' ') or cmd
    notify(('faultlens: running %s'):format(shown))
    execute(client, 'faultlens.run', args, function(result)
      ---@cast result faultlens.RunResult
      M.last_run = result
      if result.error then
        notify(('faultlens: %s: %s'):format(shown, result.error), vim.log.levels.WARN)
      elseif result.watch then -- a watcher: it keeps running, each cycle replaces its failures
        notify(('faultlens: watching %s (task %s; :FaultlensStop %s ends it)'):format(
          shown, result.task, result.task))
      else
        notify(('faultlens: %s: exit %s, %d failure(s)'):format(
          shown, tostring(result.exitCode), result.failures or 0))
      end
      vim.api.nvim_exec_autocmds('User', { pattern = 'FaultlensRunDone', data = result })
    end)
  end)
end

---@class faultlens.Listing
---@field record table The failure record.
---@field task string
---@field uri string?
---@field line integer? 0-based.
---@field shownAt string?

--- Lines describing the current failures: counts by type, then one line each.
---@param failures faultlens.Listing[]
---@return string[]
function M.format_failures(failures)
  local counts, order = {}, {}
  for _, f in ipairs(failures) do
    local t = f.record.failure_type or '?'
    if not counts[t] then
      order[#order + 1] = t
      counts[t] = 0
    end
    counts[t] = counts[t] + 1
  end
  local parts = {}
  for _, t in ipairs(order) do
    parts[#parts + 1] = ('%d %s'):format(counts[t], t)
  end
  local out = { ('faultlens: %d failure(s)%s'):format(#failures,
    #parts > 0 and (': ' .. table.concat(parts, ', ')) or '') }
  for _, f in ipairs(failures) do
    local r = f.record
    local where = '(no location)'
    if f.uri and f.uri ~= vim.NIL then
      where = vim.fn.fnamemodify(vim.uri_to_fname(f.uri), ':~:.')
      if f.line and f.line ~= vim.NIL then
        where = ('%s:%d'):format(where, f.line + 1)
      end
    end
    local msg = (type(r.message) == 'string' and r.message ~= '') and r.message
      or (type(r.signal) == 'string' and r.signal) or ''
    local state = r.recovery_result and r.recovery_result ~= vim.NIL
      and (' [' .. r.recovery_result .. ']') or ''
    out[#out + 1] = ('  %s  %s/%s%s  %s'):format(where, r.failure_type, r.severity, state,
      (msg:gsub('\n.*', '')))
  end
  return out
end

--- The `faultlens/failures` request; `cb` gets the listing.
---@param cb fun(failures: faultlens.Listing[])
---@param params? { task?: string, uri?: string }
function M.failures(cb, params)
  M.with_client(function(client)
    client:request('faultlens/failures', params or vim.empty_dict(), function(err, result)
      if err then
        notify('faultlens: failures: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
        return
      end
      cb(result and result.failures or {})
    end)
  end)
end

--- Show the counts and the list of the current failures.
function M.status()
  M.failures(function(failures)
    local lines = M.format_failures(failures)
    M.last_status = lines
    vim.api.nvim_echo({ { table.concat(lines, '\n') } }, true, {})
  end)
end

--- The state folder (`stateDir` setting, default `.faultlens`) of the running client.
---@param client vim.lsp.Client?
---@return string
local function state_dir(client)
  local root = (client and client.root_dir) or vim.fn.getcwd()
  local s = client and client.settings and client.settings.faultlens or {}
  local dir = s.stateDir or s.logDir or '.faultlens'
  if dir:sub(1, 1) == '/' then
    return dir
  end
  return vim.fs.joinpath(root, dir)
end

--- Open the newest session log (`<stateDir>/logs/session-*.log`), else the newest run output.
function M.log()
  local base = state_dir(M.client())
  local newest = function(pattern)
    local files = vim.fn.glob(vim.fs.joinpath(base, pattern), true, true)
    table.sort(files, function(a, b)
      return vim.fn.getftime(a) > vim.fn.getftime(b)
    end)
    return files[1]
  end
  local path = newest('logs/session-*.log') or newest('runs/*.log')
  if not path then
    notify(('faultlens: no log yet under %s'):format(base), vim.log.levels.WARN)
    return
  end
  vim.cmd.split(vim.fn.fnameescape(path))
  vim.bo.readonly = true
end

--- The task of the failure under the cursor, else the ledger's default task.
---@return string
local function task_here()
  local lnum = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, d in ipairs(vim.diagnostic.get(0, { lnum = lnum })) do
    local lsp = d.user_data and d.user_data.lsp
    local ours = d.source == NAME or vim.startswith(d.source or '', NAME .. ': ') -- taskInSource
    if ours and lsp and type(lsp.data) == 'table' then
      local t = lsp.data.task
      return (t and t ~= vim.NIL) and t or 'default'
    end
  end
  return 'default'
end

---@param option 'retry'|'skip'|'stop'
---@param task? string
function M.task_option(option, task)
  task = (task and task ~= '') and task or task_here()
  local command = ({ retry = 'faultlens.retryTask', skip = 'faultlens.skipTask',
    stop = 'faultlens.stopTask' })[option]
  M.with_client(function(client)
    execute(client, command, { task = task }, function(result)
      result = result or {}
      local msg = (result.message and result.message ~= vim.NIL) and result.message or ''
      notify(('faultlens: %s %s: %s %s'):format(option, task, result.status or '?', msg),
        result.accepted == false and vim.log.levels.WARN or vim.log.levels.INFO)
      vim.api.nvim_exec_autocmds('User', {
        pattern = 'FaultlensTaskDone',
        data = vim.tbl_extend('force', result, { option = option }),
      })
    end)
  end)
end

--- Forget one task's failures, or all of them.
---@param task? string
function M.clear(task)
  M.with_client(function(client)
    execute(client, 'faultlens.clear', { task = (task and task ~= '') and task or nil },
      function(result)
        notify(('faultlens: cleared %d file(s)'):format(result and result.cleared or 0))
      end)
  end)
end

--- A CI run's failed jobs as diagnostics (`faultlens.showCI`), then in the
--- quickfix list "faultlens: CI".
---@param url? string a run, job, pull request or pipeline URL (none: this branch's latest run)
function M.ci(url)
  M.with_client(function(client)
    local args = (url and url ~= '') and { url = url } or {}
    execute(client, 'faultlens.showCI', args, function(result)
      if result and type(result.error) == 'string' and result.error ~= '' then
        notify('faultlens: CI: ' .. result.error, vim.log.levels.ERROR)
        return
      end
      local jobs = {}
      for _, run in ipairs(result and result.runs or {}) do
        for _, job in ipairs(run.failedJobs or {}) do
          jobs[#jobs + 1] = job.name
        end
      end
      if #jobs == 0 then
        notify('faultlens: CI: no failed job')
        return
      end
      notify(('faultlens: CI: %d failed job(s): %s'):format(#jobs, table.concat(jobs, ', ')))
      require('faultlens.quickfix').show('ci')
    end)
  end)
end

--- Send captured output to the server (`faultlens/ingest`).
---@param output string
---@param meta? { command?: string|string[], cwd?: string, exitCode?: integer, task?: string }
function M.ingest(output, meta)
  meta = meta or {}
  M.with_client(function(client)
    client:notify('faultlens/ingest', {
      output = output,
      command = meta.command,
      cwd = meta.cwd or run_cwd(client),
      exitCode = meta.exitCode,
      task = meta.task,
    })
  end)
end

-- -- :make forwarding --------------------------------------------------------------------

---@type { path: string, makeef: string }?
local capture = nil

--- QuickFixCmdPre: point 'makeef' at a file of ours so the whole output can be read back.
function M._before_make()
  capture = { path = vim.fn.tempname(), makeef = vim.o.makeef }
  vim.o.makeef = capture.path
end

--- QuickFixCmdPost: send the output of :make to the server, then restore 'makeef'.
function M._after_make()
  local c = capture
  capture = nil
  if not c then
    return
  end
  vim.o.makeef = c.makeef
  local ok, lines = pcall(vim.fn.readfile, c.path, 'b')
  vim.fn.delete(c.path)
  local output
  if ok and #lines > 0 then
    output = table.concat(lines, '\n')
    M._make_source = 'makeef'
  else -- fall back to what the quickfix list kept
    M._make_source = 'quickfix'
    local items = vim.fn.getqflist()
    local texts = {}
    for _, it in ipairs(items) do
      texts[#texts + 1] = it.text
    end
    output = table.concat(texts, '\n')
  end
  if output == '' then
    return
  end
  local makeprg = vim.bo.makeprg ~= '' and vim.bo.makeprg or vim.o.makeprg
  -- with a piping 'shellpipe' (`2>&1| tee`) v:shell_error is the pipe's status, not make's
  local exit = (not vim.o.shellpipe:find('|', 1, true)) and vim.v.shell_error or nil
  M.ingest(output, { command = makeprg, exitCode = exit })
end

-- -- progress ----------------------------------------------------------------------------

---@param ev { data: { client_id: integer, params: { value: table } } }
function M._on_progress(ev)
  local client = vim.lsp.get_client_by_id(ev.data.client_id)
  if not client or client.name ~= NAME then
    return
  end
  local v = ev.data.params.value or {}
  if type(v) ~= 'table' or not v.kind then
    return
  end
  -- Neovim fills in the title of report/end messages from their begin
  local msg = (v.title or NAME) .. (v.message and (': ' .. v.message) or '')
  if v.kind == 'end' then
    msg = msg .. ' (done)'
  end
  vim.api.nvim_echo({ { msg } }, false, {})
end

return M
