-- The shipped broken example (a temp copy, the cwd) in a real Neovim:
-- :FaultlensRun the build, diagnostics at the right lines, the compile quick fix edits
-- the file (buffer and disk), the test recipe's one attempt escalates, hover shows the box,
-- :FaultlensStatus / :FaultlensLog / :FaultlensRetry / :FaultlensSkip work.
local L = dofile(vim.fs.joinpath(assert(os.getenv('TESTS_NVIM')), 'lib.lua'))
local screen = os.getenv('SCREEN_OUT') -- where to write the rendered text (optional)

L.setup()

local progress = {}
vim.api.nvim_create_autocmd('LspProgress', {
  callback = function(ev)
    local v = ev.data.params.value
    progress[#progress + 1] = v.kind .. ':' .. (v.title or '') .. ':' .. (v.message or '')
  end,
})
local run_result
vim.api.nvim_create_autocmd('User', {
  pattern = 'FaultlensRunDone',
  callback = function(ev)
    run_result = ev.data
  end,
})

local outcomes = {}
vim.api.nvim_create_autocmd('User', {
  pattern = 'FaultlensRecipeDone',
  callback = function(ev)
    outcomes[#outcomes + 1] = ev.data.result
  end,
})

-- 1. run the build through the server
local cart_buf = L.open('shop/cart.py')
L.say('attached to shop/cart.py')
vim.cmd('FaultlensRun ' .. assert(os.getenv('BUILD')))
local res = L.wait(':FaultlensRun result', function()
  return run_result
end, 30000)
L.say(('run: exit %s, %d failure(s)'):format(tostring(res.exitCode), res.failures))
L.check(res.exitCode == 1 and res.failures == 2, 'run result ' .. vim.inspect(res))
L.check(progress[1] and progress[1]:match('^begin:faultlens: '), 'no progress begin: ' .. vim.inspect(progress))
L.check(progress[#progress]:match('^end:.*2 failure%(s%)'), 'no progress end: ' .. vim.inspect(progress))
L.say('progress: ' .. progress[1] .. ' .. ' .. progress[#progress])

-- 2. diagnostics at the right files and lines
local cart = L.wait('cart.py diagnostic', function()
  return L.diags('shop/cart.py')[1]
end)
L.check(#L.diags('shop/cart.py') == 1, 'one diagnostic in cart.py')
L.check(cart.lnum == 6 and cart.code == 'compile', ('cart.py diagnostic at %d code %s'):format(cart.lnum, tostring(cart.code)))
L.check(cart.message:find("NameError: name 'Money' is not defined", 1, true), 'message ' .. cart.message)
L.check(cart.severity == vim.diagnostic.severity.ERROR, 'severity')
local line = vim.api.nvim_buf_get_lines(cart_buf, cart.lnum, cart.lnum + 1, false)[1]
-- Python's carets point at `Money`; the record has no column, so the range is the line
L.check(cart.end_lnum == cart.lnum and line:sub(cart.col + 1, cart.end_col):find('Money', 1, true),
  'range covers ' .. line:sub(cart.col + 1, cart.end_col))
L.say(('diagnostic: shop/cart.py:%d:%d %s "%s"'):format(cart.lnum + 1, cart.col + 1, cart.code, cart.message))
local test = L.wait('test_pricing.py diagnostic', function()
  return L.diags('tests/test_pricing.py')[1]
end)
L.check(test.lnum == 7 and test.code == 'test', ('test_pricing.py diagnostic at %d code %s'):format(test.lnum, tostring(test.code)))
L.say(('diagnostic: tests/test_pricing.py:%d:%d %s "%s"'):format(test.lnum + 1, test.col + 1, test.code, test.message))

-- 3. the compile quick fix (resolved lazily, then verified by the server's re-run)
vim.api.nvim_win_set_cursor(0, { cart.lnum + 1, cart.col })
vim.lsp.buf.code_action({
  apply = true,
  filter = function(a)
    return a.title == 'faultlens: Import Money from shop.money'
  end,
})
local fixed = 'from shop.money import Money'
L.wait('the import in the buffer', function()
  return table.concat(vim.api.nvim_buf_get_lines(cart_buf, 0, -1, false), '\n'):find(fixed, 1, true)
end)
L.wait('the import on disk', function()
  return L.read('shop/cart.py'):find(fixed, 1, true)
end)
local disk = vim.fn.readfile('shop/cart.py')
local buffer = vim.api.nvim_buf_get_lines(cart_buf, 0, -1, false)
L.check(vim.deep_equal(disk, buffer), 'disk and buffer differ:\n' .. table.concat(disk, '\n') .. '\n--\n' .. table.concat(buffer, '\n'))
L.check(disk[3] == fixed and disk[4] == 'from shop.pricing import total_with_tax', 'import placement (sorted into the imports, as isort puts it): ' .. vim.inspect(vim.list_slice(disk, 1, 6)))
L.say('quick fix applied: line 4 is now "' .. disk[4] .. '"')
L.wait('cart.py diagnostic cleared (verified)', function()
  return #L.diags('shop/cart.py') == 0
end, 30000)
L.wait('the compile outcome', function()
  return outcomes[1]
end)
L.check(outcomes[1] == 'recovered', 'compile recipe outcome ' .. tostring(outcomes[1]))
L.say('cart.py diagnostic cleared after the verifying re-run (recovered)')
L.wait('the buffer marked written (same text as the disk)', function()
  return not vim.bo[cart_buf].modified
end)
L.check(vim.deep_equal(vim.fn.readfile('shop/cart.py'), vim.api.nvim_buf_get_lines(cart_buf, 0, -1, false)), 'buffer and disk differ after the write')

-- 4. the test recipe's one attempt: a re-run of that test, which fails again -> escalated
local test_buf = L.open('tests/test_pricing.py')
test = L.wait('test_pricing.py diagnostic in its buffer', function()
  return L.diags('tests/test_pricing.py')[1]
end)
vim.api.nvim_win_set_cursor(0, { test.lnum + 1, test.col })
L.prompt_ok = true -- the escalation asks retry / skip / stop; the test dismisses it
vim.lsp.buf.code_action({
  apply = true,
  filter = function(a)
    return vim.startswith(a.title, 'faultlens: Re-run') and not a.disabled
  end,
})
local ask = L.wait('the escalation prompt', function()
  return L.prompts[1]
end, 30000)
L.prompt_ok = false
L.wait('the test recipe outcome', function()
  return outcomes[2]
end)
L.check(outcomes[2] == 'escalated', 'test recipe outcome ' .. tostring(outcomes[2]))
local titles = vim.tbl_map(function(a)
  return a.title
end, ask.items)
L.say('escalation prompt: ' .. ask.prompt .. ' ' .. table.concat(titles, ' | '))
local joined = table.concat(titles, ' ')
L.check(joined:find('retry') and joined:find('skip') and joined:find('stop'), 'prompt options ' .. joined)

-- 5. hover on the escalated failure: the boxed escalation display
test = L.wait('test diagnostic after the attempt', function()
  return L.diags('tests/test_pricing.py')[1]
end)
vim.api.nvim_win_set_cursor(0, { test.lnum + 1, test.col })
local params = vim.lsp.util.make_position_params(0, 'utf-8')
local hover = L.wait('hover', function()
  local r = vim.lsp.buf_request_sync(test_buf, 'textDocument/hover', params, 5000)
  for _, v in pairs(r or {}) do
    local text = v.result and v.result.contents and v.result.contents.value
    if text and text:find('╔', 1, true) then
      return text
    end
  end
end)
for _, want in ipairs({ 'test', 'blocking', 'AssertionError', 'Attempts so far: 1', '╔', 'ERROR: ', '╚', 'retry', 'skip' }) do
  L.check(hover:find(want, 1, true), ('hover lacks %q:\n%s'):format(want, hover))
end
L.say('hover: ' .. #vim.split(hover, '\n') .. ' lines with the escalation box')

-- the same hover as the user sees it: the floating window vim.lsp.buf.hover() opens
vim.lsp.buf.hover()
local float = L.wait('hover window', function()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      return w
    end
  end
end)
local shown = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
L.check(table.concat(shown, '\n'):find('╔', 1, true), 'hover window lacks the box')
if screen then
  local out = { '$ nvim tests/test_pricing.py    (faultlens diagnostics: vim.diagnostic.get)', '' }
  for _, rel in ipairs({ 'shop/cart.py', 'tests/test_pricing.py' }) do
    for _, d in ipairs(L.diags(rel)) do
      out[#out + 1] = ('%s:%d:%d: %s [%s] %s'):format(rel, d.lnum + 1, d.col + 1,
        vim.diagnostic.severity[d.severity], d.code, d.message)
    end
  end
  out[#out + 1] = ''
  out[#out + 1] = '-- K (vim.lsp.buf.hover) on tests/test_pricing.py:' .. (test.lnum + 1)
  vim.list_extend(out, shown)
  vim.fn.writefile(out, screen)
end
vim.api.nvim_win_close(float, true)

-- 6. :FaultlensStatus, :FaultlensLog, :FaultlensRetry, :FaultlensSkip
local fl = require('faultlens')
fl.last_status = nil
vim.cmd('FaultlensStatus')
local status = L.wait(':FaultlensStatus', function()
  return fl.last_status
end)
L.check(status[1] == 'faultlens: 1 failure(s): 1 test', 'status ' .. vim.inspect(status))
L.check(status[2]:find('tests/test_pricing.py:8', 1, true) and status[2]:find('[escalated]', 1, true), 'status line ' .. status[2])
L.say('status: ' .. table.concat(status, ' / '))
vim.cmd('FaultlensLog')
local log_name = vim.api.nvim_buf_get_name(0)
L.check(log_name:match('/%.faultlens/logs/session%-[%d-]+%.log$'), 'log buffer ' .. log_name)
local log_text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
L.check(log_text:find('ERROR', 1, true), 'session log lacks the escalation')
L.say('log: ' .. vim.fn.fnamemodify(log_name, ':t'))
vim.cmd('close')
local task_done
vim.api.nvim_create_autocmd('User', {
  pattern = 'FaultlensTaskDone',
  callback = function(ev)
    task_done = ev.data
  end,
})
vim.cmd.edit('tests/test_pricing.py')
vim.api.nvim_win_set_cursor(0, { test.lnum + 1, 0 })
vim.cmd('FaultlensRetry') -- the task of the failure under the cursor: `default`
local retried = L.wait(':FaultlensRetry', function()
  return task_done
end, 30000)
L.check(retried.option == 'retry' and retried.accepted and retried.retriesUsed == 1, 'retry ' .. vim.inspect(retried))
L.check(retried.run and retried.run.failures == 1, 'the retry re-ran the build: ' .. vim.inspect(retried.run))
L.check(#L.diags('tests/test_pricing.py') == 1, 'the test failure is still shown')
L.say(('retry: %s, %d of %d retries used, re-run found %d failure'):format(retried.status, retried.retriesUsed, retried.maxRetries, retried.run.failures))
task_done = nil
vim.cmd('FaultlensSkip default')
local skipped = L.wait(':FaultlensSkip', function()
  return task_done
end)
L.check(skipped.option == 'skip' and skipped.accepted, 'skip ' .. vim.inspect(skipped))
L.wait('diagnostics cleared by :FaultlensSkip', function()
  return #L.diags('tests/test_pricing.py') == 0
end)
L.say('skip: ' .. skipped.status .. ', diagnostics cleared')
task_done = nil
vim.cmd('FaultlensStop')
local stopped = L.wait(':FaultlensStop', function()
  return task_done
end)
L.check(stopped.option == 'stop' and stopped.task == 'default', 'stop ' .. vim.inspect(stopped))
L.say(('stop: %s %s'):format(tostring(stopped.status), tostring(stopped.message)))
L.pass()
