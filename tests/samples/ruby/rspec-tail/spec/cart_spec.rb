# frozen_string_literal: true

require "shop"

RSpec.describe Shop::Cart do
  subject(:cart) { described_class.new }

  it "starts empty" do
    expect(cart.count).to eq(0)
  end

  it "adds up the quantities" do
    cart.add("tea", Shop::Price.new(350), 2).add("cake", Shop::Price.new(420))
    expect(cart.count).to eq(3)
  end

  it "totals the prices" do
    cart.add("tea", Shop::Price.new(350), 2).add("cake", Shop::Price.new(420))
    expect(cart.total.to_s).to eq("11.20 EUR")
  end
end
