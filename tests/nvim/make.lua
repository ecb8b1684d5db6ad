-- :make output reaches the server: makeprg = the example's build, run with :make;
-- the plugin sends the captured output through faultlens/ingest and the failures appear.
local L = dofile(vim.fs.joinpath(assert(os.getenv('TESTS_NVIM')), 'lib.lua'))

L.setup()
L.open('shop/pricing.py')
L.say('attached to shop/pricing.py')
vim.o.makeprg = assert(os.getenv('BUILD'))
local makeef_before = vim.o.makeef
vim.cmd('silent make!')
L.say(('quickfix list: %d entries'):format(#vim.fn.getqflist()))
L.check(require('faultlens')._make_source == 'makeef', 'output read from ' .. tostring(require('faultlens')._make_source))
L.check(vim.o.makeef == makeef_before, "'makeef' not restored: " .. vim.o.makeef)

local cart = L.wait('cart.py diagnostic from :make', function()
  return L.diags('shop/cart.py')[1]
end)
L.check(cart.lnum == 6 and cart.code == 'compile', 'cart diagnostic ' .. vim.inspect(cart))
local test = L.wait('test_pricing.py diagnostic from :make', function()
  return L.diags('tests/test_pricing.py')[1]
end)
L.check(test.lnum == 7 and test.code == 'test', 'test diagnostic ' .. vim.inspect(test))
L.say(('diagnostics: shop/cart.py:%d %s, tests/test_pricing.py:%d %s'):format(
  cart.lnum + 1, cart.code, test.lnum + 1, test.code))

-- the server kept the output it was sent: the log of the run named after makeprg
local fl = require('faultlens')
fl.failures(function(failures)
  fl._listed = failures
end)
local listed = L.wait('faultlens/failures', function()
  return fl._listed
end)
L.check(#listed == 2, 'failures listed: ' .. #listed)
for _, f in ipairs(listed) do
  L.check(f.task:find('unittest', 1, true), 'task of the :make output: ' .. tostring(f.task))
end
L.say('faultlens/failures: ' .. #listed .. ' under task ' .. listed[1].task)

-- a second :make after fixing the import replaces the first one's failures
local lines = vim.fn.readfile('shop/cart.py')
table.insert(lines, 4, 'from shop.money import Money')
vim.fn.writefile(lines, 'shop/cart.py')
vim.cmd('silent make!')
L.wait('cart.py diagnostic gone after the second :make', function()
  return #L.diags('shop/cart.py') == 0
end)
L.check(#L.diags('tests/test_pricing.py') == 1, 'test failure still shown')
L.say('second :make replaced the failures (cart.py cleared, test_pricing.py kept)')
vim.cmd('FaultlensClear')
L.wait('diagnostics cleared by :FaultlensClear', function()
  return #L.diags('tests/test_pricing.py') == 0
end)
L.say(':FaultlensClear cleared the diagnostics')
L.pass()
