--- faultlens failures in the quickfix list, kept in sync with the server.
---
--- Users combine `:make` (the quickfix list) with diagnostics; faultlens keeps
--- one quickfix list per task ("faultlens: <task>"), replaced in place
--- (`setqflist(..., 'r')`) whenever the task's failures change: a watcher's
--- every cycle, a re-run, a fix, a stop.  `:FaultlensQuickfix [task]` fills
--- one list now and opens it.  The failures come from `faultlens/failures`, so
--- files that are not open are listed too.

local M = {}

local PREFIX = 'faultlens: '
local DEBOUNCE_MS = 150

---@type table<string, true> tasks whose list this module keeps
M.tasks = {}

--- Quickfix items of faultlens' failures (those shown in a file), in order.
---@param failures faultlens.Listing[]
---@return vim.quickfix.entry[]
function M.items(failures)
  local out = {}
  for _, f in ipairs(failures) do
    if f.uri and f.uri ~= vim.NIL then
      local r = f.record
      local msg = (type(r.message) == 'string' and r.message ~= '') and r.message
        or (type(r.signal) == 'string' and r.signal) or r.failure_type
      local col = r.source_column
      out[#out + 1] = {
        filename = vim.uri_to_fname(f.uri),
        lnum = (f.line ~= nil and f.line ~= vim.NIL) and (f.line + 1) or 1,
        col = (f.shownAt == 'source' and type(col) == 'number') and col or 0,
        text = ('[%s] %s'):format(r.failure_type, (msg:gsub('\n.*', ''))),
        type = r.severity == 'blocking' and 'E' or 'W',
        user_data = { faultlens = { id = r.id, task = f.task } },
      }
    end
  end
  return out
end

--- The id of the quickfix list titled `title` (0 when there is none).
---@param title string
---@return integer
local function list_id(title)
  local last = vim.fn.getqflist({ nr = '$' }).nr
  for nr = last, 1, -1 do
    local info = vim.fn.getqflist({ nr = nr, id = 0, title = 0 })
    if info.title == title then
      return info.id
    end
  end
  return 0
end

--- Replace (or create) the list of one task.
---@param title string
---@param items vim.quickfix.entry[]
function M.set(title, items)
  local id = list_id(title)
  if id ~= 0 then
    vim.fn.setqflist({}, 'r', { id = id, items = items, title = title })
  else
    vim.fn.setqflist({}, ' ', { items = items, title = title })
  end
end

--- Every task's list replaced by its current failures (tasks gone: emptied).
---@param failures faultlens.Listing[]
function M.sync(failures)
  local by_task, order = {}, {}
  for _, f in ipairs(failures) do
    if not by_task[f.task] then
      by_task[f.task] = {}
      order[#order + 1] = f.task
    end
    table.insert(by_task[f.task], f)
  end
  for task in pairs(M.tasks) do
    if not by_task[task] then
      M.set(PREFIX .. task, {})
    end
  end
  for _, task in ipairs(order) do
    M.tasks[task] = true
    M.set(PREFIX .. task, M.items(by_task[task]))
  end
  vim.api.nvim_exec_autocmds('User', { pattern = 'FaultlensQuickfix', data = { tasks = order } })
end

--- Ask the server for the failures and sync the lists.
function M.refresh()
  require('faultlens').failures(M.sync)
end

local timer = nil ---@type uv.uv_timer_t?

--- Refresh once the burst of diagnostics of one publish has settled.
function M.schedule()
  if timer then
    timer:stop()
  else
    timer = assert(vim.uv.new_timer())
  end
  timer:start(DEBOUNCE_MS, 0, vim.schedule_wrap(M.refresh))
end

--- Keep the lists in sync: after every change of faultlens' diagnostics.
---@param group integer the plugin's augroup
function M.enable(group)
  vim.api.nvim_create_autocmd('DiagnosticChanged', {
    group = group,
    desc = 'faultlens: keep the quickfix lists in sync with the failures',
    callback = function(ev)
      local changed = ev.data and ev.data.diagnostics
      if changed == nil or #changed == 0 then
        M.schedule() -- a clean cycle clears: nothing says whose it was
        return
      end
      for _, d in ipairs(changed) do
        if d.source == 'faultlens' or vim.startswith(d.source or '', 'faultlens: ') then
          M.schedule()
          return
        end
      end
    end,
  })
end

--- `:FaultlensQuickfix [task]`: one task's failures (default: every task's) in
--- a list of their own, opened.
---@param task? string
function M.show(task)
  require('faultlens').failures(function(failures)
    local title = PREFIX .. ((task and task ~= '') and task or 'all tasks')
    if task == 'ci' then -- every CI job's failures (their tasks are `ci: <job>`)
      title = PREFIX .. 'CI'
      failures = vim.tbl_filter(function(f)
        return type(f.task) == 'string' and vim.startswith(f.task, 'ci: ')
      end, failures)
    elseif task and task ~= '' then
      failures = vim.tbl_filter(function(f)
        return f.task == task or (f.record and f.record.task == task)
      end, failures)
    end
    M.set(title, M.items(failures))
    local id = list_id(title)
    local nr = vim.fn.getqflist({ id = id, nr = 0 }).nr
    vim.cmd(('silent %dchistory'):format(nr))
    vim.cmd('botright copen')
    vim.api.nvim_exec_autocmds('User', { pattern = 'FaultlensQuickfix', data = { title = title } })
  end)
end

return M
