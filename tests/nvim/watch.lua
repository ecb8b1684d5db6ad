-- The quickfix list follows a watch task's cycles: vitest --watch run with
-- :FaultlensRun, `quickfix = true`; the failing test is in the task's list,
-- a fix on disk empties it (the next cycle), a break brings it back,
-- :FaultlensStop ends the watcher and clears it; :FaultlensQuickfix opens a list.
local L = dofile(vim.fs.joinpath(assert(os.getenv('TESTS_NVIM')), 'lib.lua'))

L.setup({ quickfix = true })
L.open('cart.js')
local fl = require('faultlens')
local ran
vim.api.nvim_create_autocmd('User', {
  pattern = 'FaultlensRunDone',
  callback = function(ev)
    ran = ev.data
  end,
})
vim.cmd('FaultlensRun vitest --watch --globals')
local result = L.wait('the watch run answered', function()
  return ran
end)
L.check(result.watch == true and result.watcher == 'vitest', 'not followed as a watcher: ' .. vim.inspect(result))
local title = 'faultlens: ' .. result.task
L.say('watching, task ' .. result.task)

--- The items of the task's quickfix list (nil while there is no such list).
local function items()
  local last = vim.fn.getqflist({ nr = '$' }).nr
  for nr = 1, last do
    local info = vim.fn.getqflist({ nr = nr, title = 0, items = 0 })
    if info.title == title then
      return info.items
    end
  end
  return nil
end

local function failing()
  local it = items()
  if it and #it == 1 then
    return it[1]
  end
end

local CYCLE_MS = 120000 -- a cycle on a loaded machine
local first = L.wait('the failing test in the quickfix list', failing, CYCLE_MS)
L.check(vim.api.nvim_buf_get_name(first.bufnr):match('cart%.test%.js$') and first.lnum == 4,
  'quickfix item ' .. vim.inspect(first))
L.check(first.text:find('expected 8 to be 11', 1, true), 'item text: ' .. first.text)
L.say(('cycle 1: %s:%d %s'):format(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(first.bufnr), ':t'),
  first.lnum, first.text))

vim.fn.writefile(vim.fn.readfile('cart.js.fixed', 'b'), 'cart.js', 'b')
L.wait('the list emptied by the clean cycle', function()
  local it = items()
  return it and #it == 0
end, CYCLE_MS)
L.say('cycle 2 (fixed): the list is empty')

vim.fn.writefile(vim.fn.readfile('cart.js.broken', 'b'), 'cart.js', 'b')
L.wait('the failure back in the list', failing, CYCLE_MS)
L.say('cycle 3 (broken again): 1 item')

-- an explicit list of every task's failures, opened
local shown
vim.api.nvim_create_autocmd('User', {
  pattern = 'FaultlensQuickfix',
  callback = function(ev)
    if ev.data and ev.data.title then
      shown = ev.data.title
    end
  end,
})
vim.cmd('FaultlensQuickfix')
L.wait(':FaultlensQuickfix', function()
  return shown
end)
local current = vim.fn.getqflist({ title = 0, size = 0 })
L.check(current.title == 'faultlens: all tasks' and current.size == 1, vim.inspect(current))
L.check(vim.bo.buftype == 'quickfix', 'the quickfix window is not open')
L.say(':FaultlensQuickfix: ' .. current.title .. ', ' .. current.size .. ' item')

vim.cmd('FaultlensStop ' .. result.task) -- the rest of the line is the one argument
L.wait('the list emptied by the stop', function()
  local it = items()
  return it and #it == 0
end, 30000)
L.say(':FaultlensStop: the watcher is stopped and its list is empty')
fl.last_run = nil
L.pass()
