# frozen_string_literal: true

require "minitest/autorun"
require "shop"

class TestCart < Minitest::Test
  def setup
    @cart = Shop::Cart.new
  end

  def test_starts_empty
    assert_equal 0, @cart.count
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
