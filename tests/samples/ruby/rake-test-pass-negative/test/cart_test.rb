require 'minitest/autorun'
require 'cart'

class CartTest < Minitest::Test
  def test_total
    assert_equal 6, Cart.new([{ price: 2, qty: 3 }]).total
  end
end
