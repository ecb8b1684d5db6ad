-- :checkhealth faultlens: Neovim's version, the executable and its version, the server starts.
local L = dofile(vim.fs.joinpath(assert(os.getenv('TESTS_NVIM')), 'lib.lua'))

L.setup()
vim.cmd('checkhealth faultlens')
local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
io.stdout:write(text .. '\n')
local v = vim.version()
for _, want in ipairs({
  ('OK Neovim %d.%d.%d'):format(v.major, v.minor, v.patch),
  'OK ' .. assert(os.getenv('FAULTLENS')) .. ': faultlens ',
  'OK the server starts and answers initialize (faultlens ',
}) do
  L.check(text:find(want, 1, true), 'checkhealth lacks ' .. want)
end
L.check(not text:find('ERROR', 1, true), 'checkhealth reports an error')

-- and a missing executable is an error with the install command
require('faultlens').setup({ cmd = { 'faultlens-not-installed-here', 'serve' } })
vim.cmd('checkhealth faultlens')
text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
L.check(text:find('ERROR `faultlens-not-installed-here` not found on PATH', 1, true), 'missing executable not reported:\n' .. text)
L.check(text:find('pip install faultlens', 1, true), 'no install advice')

-- the help file: its tags build without duplicates and every command has one
local docdir = vim.fs.joinpath(vim.fn.tempname(), 'doc')
vim.fn.mkdir(docdir, 'p')
local src = vim.fs.joinpath(assert(os.getenv('FAULTLENS_NVIM')), 'doc', 'faultlens.txt')
vim.fn.writefile(vim.fn.readfile(src, 'b'), vim.fs.joinpath(docdir, 'faultlens.txt'), 'b')
local ok, err = pcall(vim.cmd, 'helptags ' .. vim.fn.fnameescape(docdir))
L.check(ok, 'helptags: ' .. tostring(err))
vim.opt.runtimepath:prepend(vim.fs.dirname(docdir))
local tags = { 'faultlens', 'faultlens.setup()', 'faultlens-settings', 'faultlens-make' }
for _, cmd in pairs(vim.api.nvim_get_commands({})) do
  if vim.startswith(cmd.name, 'Faultlens') then
    tags[#tags + 1] = ':' .. cmd.name
  end
end
L.check(#tags == 4 + 10, 'user commands: ' .. vim.inspect(tags))
for _, tag in ipairs(tags) do
  ok, err = pcall(vim.cmd.help, tag)
  L.check(ok and vim.api.nvim_buf_get_name(0):match('faultlens%.txt$'), ('no help for %s: %s'):format(tag, tostring(err)))
  vim.cmd.helpclose()
end
L.say('help tags: ' .. table.concat(tags, ' '))
L.pass()
