require "minitest/autorun"
require "cart"

class CartTest < Minitest::Test
  def test_total
    assert_equal 3, Cart.new.total([{price: 3}])
  end
end
