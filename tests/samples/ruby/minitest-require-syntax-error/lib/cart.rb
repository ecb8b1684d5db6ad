class Cart
  def total(items)
    items.sum { |i| i[:price] 
  end
end
