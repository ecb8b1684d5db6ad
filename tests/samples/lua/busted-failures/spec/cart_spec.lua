local Cart = require("shop.cart")

describe("cart", function()
  local function cart()
    return Cart.new():add("tea", 350, 2):add("cake", 420)
  end

  it("starts empty", function()
    assert.are.equal(0, Cart.new():count())
  end)

  it("counts the quantities", function()
    assert.are.equal(3, cart():count())
  end)

  it("totals the prices", function()
    assert.are.equal("11.20 EUR", Cart.format(cart():total()))
  end)
end)

describe("discounts", function()
  it("applies a code", function()
    assert.are.equal(10, Cart.new():discount("SPRING"))
  end)
end)
