require_relative '../lib/receipt'

RSpec.describe 'Receipt' do
  it 'prints' do
    expect(Receipt.new.lines).to be_empty
  end
end
