require 'minitest/autorun'
require 'cart'

class CartTest < Minitest::Test
  def test_total
    assert_equal 7, Cart.new([{ price: 2, qty: 3 }]).total
  end
end
