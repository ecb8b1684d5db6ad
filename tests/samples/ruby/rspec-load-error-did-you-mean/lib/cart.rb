class Cart
  def initialize(items) = @items = items
  def total = @items.sum { |i| i[:price] * i[:qty] }
end
