require "minitest/autorun"

class Cart
  def initialize; @items = []; end
  def add(price, qty = 1); @items << [price, qty]; self; end
  def total; @items.sum { |p, q| p * q } + 1; end
end

describe "shopping cart" do
  it "totals the prices" do
    _(Cart.new.add(2, 3).total).must_equal 6
  end

  it "starts empty" do
    _(Cart.new.total).must_equal 0
  end
end
