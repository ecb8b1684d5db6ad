local Cart = {}
Cart.__index = Cart

function Cart.new()
  return setmetatable({ items = {} }, Cart)
end

function Cart:add(name, cents, quantity)
  table.insert(self.items, { name = name, cents = cents, quantity = quantity or 1 })
  return self
end

function Cart:count(unused)
  local n = 0
  for _, item in ipairs(self.items) do
    n = n + item.quantity
  end
  return n
end

function Cart:total()
  local sum = 0
  total_calls = (total_calls or 0) + 1
  for _, item in ipairs(self.items) do
    sum = sum + item.cents * item.quantity
  end
  return sum
end

function Cart.format(cents)
  return string.format("%.2f EUR", cents / 100)
end

return Cart
