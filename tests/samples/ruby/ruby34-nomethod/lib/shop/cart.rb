# frozen_string_literal: true

module Shop
  # The items a customer is about to buy.
  class Cart
    Item = Struct.new(:name, :price, :quantity)

    def initialize
      @items = []
    end

    def add(name, price, quantity = 1)
      @items << Item.new(name, price, quantity)
      self
    end

    def total
      @items.map { |item| Price.new(item.price.cent * item.quantity) }
            .reduce(Price.new(0)) { |sum, price| sum + price }
    end

    def count
      @items.sum(&:quantity)
    end
  end
end
