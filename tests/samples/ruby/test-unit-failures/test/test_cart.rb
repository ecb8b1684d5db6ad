# frozen_string_literal: true

require "test/unit"
require "shop"

class TestCart < Test::Unit::TestCase
  def setup
    @cart = Shop::Cart.new
  end

  def test_count
    @cart.add("tea", Shop::Price.new(350), 2).add("cake", Shop::Price.new(420))
    assert_equal 3, @cart.count
  end

  def test_total
    @cart.add("tea", Shop::Price.new(350), 2).add("cake", Shop::Price.new(420))
    assert_equal "11.20 EUR", @cart.total.to_s
  end
end
