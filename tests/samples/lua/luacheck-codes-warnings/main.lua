local Cart = require("shop.cart")

local cart = Cart.new():add("tea", 350, 2):add("cake", 420)
print("Total: " .. Cart.format(cart:total()))
