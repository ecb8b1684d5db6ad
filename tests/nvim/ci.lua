-- :FaultlensCI URL: the CI run's failed jobs (GitHub API stand-in on loopback,
-- GITHUB_API_URL in the environment the server inherits) as diagnostics whose
-- source names the job, and in the quickfix list "faultlens: CI".
local L = dofile(vim.fs.joinpath(assert(os.getenv('TESTS_NVIM')), 'lib.lua'))

L.setup()
L.open('src/auth/middleware.ts')
L.say('attached to src/auth/middleware.ts')
vim.cmd('FaultlensCI ' .. assert(os.getenv('RUN_URL')))

local d = L.wait('the typecheck job\'s diagnostic', function()
  local buf = vim.fn.bufnr(vim.fn.fnamemodify('src/auth/middleware.ts', ':p'))
  return vim.tbl_filter(function(x)
    return x.source == 'ci: typecheck'
  end, vim.diagnostic.get(buf))[1]
end)
L.check(d.lnum == 41, 'diagnostic line ' .. vim.inspect(d))
L.say(('diagnostic: src/auth/middleware.ts:%d source %s'):format(d.lnum + 1, d.source))

local list = L.wait('the quickfix list "faultlens: CI"', function()
  local info = vim.fn.getqflist({ title = 0, items = 0 })
  return info.title == 'faultlens: CI' and #info.items >= 2 and info
end)
local shown = {}
for _, item in ipairs(list.items) do
  shown[#shown + 1] = ('%s:%d %s'):format(vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ':.'), item.lnum, item.text)
end
table.sort(shown)
for _, line in ipairs(shown) do
  L.say('quickfix: ' .. line)
end
L.pass()
