require_relative '../lib/cart'

RSpec.describe Cart do
  it 'totals' do
    expect(Cart.new([{ price: 2, qty: 3 }]).total).to eq(6)
  end
end
