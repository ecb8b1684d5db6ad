-- The README picture: Neovim in a real terminal (tests/nvim/screenshot.sh runs it in tmux)
-- with faultlens diagnostics and the hover of the escalated test failure.
-- Writes $SCREEN_DONE when the screen is ready to be captured (or "FAIL: ..." into it).
local done = assert(os.getenv('SCREEN_DONE'))
local function finish(msg)
  vim.fn.writefile({ msg }, done)
end
local function wait(cond, ms)
  return vim.wait(ms or 30000, cond, 50)
end

vim.opt.runtimepath:prepend(assert(os.getenv('FAULTLENS_NVIM')))
vim.cmd('runtime plugin/faultlens.lua')
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.shortmess = vim.o.shortmess .. 'I'
vim.diagnostic.config({ virtual_text = true, signs = true, underline = true })
require('faultlens').setup({
  cmd = { assert(os.getenv('FAULTLENS')), 'serve' },
  settings = { askOnEscalation = false }, -- the picture shows the hover, not the prompt
})

vim.cmd.edit('tests/test_pricing.py')
local buf = vim.api.nvim_get_current_buf()
if not wait(function() return #vim.lsp.get_clients({ bufnr = buf, name = 'faultlens' }) > 0 end) then
  return finish('FAIL: attach')
end
local ran
vim.api.nvim_create_autocmd('User', { pattern = 'FaultlensRunDone', callback = function(ev) ran = ev.data end })
vim.cmd('FaultlensRun ' .. assert(os.getenv('BUILD')))
if not wait(function() return ran ~= nil end) then
  return finish('FAIL: run')
end
local d = vim.diagnostic.get(buf)[1]
if not d then
  return finish('FAIL: no diagnostic')
end
-- the test recipe's one attempt (a re-run of that test alone), which escalates
local client = vim.lsp.get_clients({ bufnr = buf, name = 'faultlens' })[1]
local function apply_recipe(id)
  local answered, result, err = false, nil, nil
  client:request('workspace/executeCommand', {
    command = 'faultlens.applyRecipe',
    arguments = { { failureId = id } },
  }, function(e, r)
    answered, result, err = true, r, e
  end, buf)
  wait(function() return answered end)
  return result, err
end
local applied, err
for _ = 1, 3 do -- a busy machine can make the first request fail; the ledger keeps it single-shot
  applied, err = apply_recipe(d.user_data.lsp.data.id)
  if applied and applied.result then
    break
  end
  vim.wait(500)
  d = vim.diagnostic.get(buf)[1] or d
end
if not (applied and applied.result) then
  return finish('FAIL: applyRecipe ' .. vim.inspect(err))
end
vim.cmd('echo ""')
local function float_text()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), '\n')
    end
  end
end
-- hover until it shows the escalation box (the hover reads the ledger the attempt wrote)
for _ = 1, 5 do
  d = vim.diagnostic.get(buf)[1]
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  vim.lsp.buf.hover({ border = 'rounded', max_width = 80 })
  wait(function() return float_text() ~= nil end, 5000)
  if (float_text() or ''):find('ERROR: ', 1, true) then
    break
  end
  vim.cmd('fclose!')
  vim.wait(500)
end
vim.cmd('redraw!')
finish('READY ' .. tostring(applied.result))
