require "socket"
require "net/http"

RSpec.describe "price client" do
  it "fetches prices" do
    res = Net::HTTP.get_response(URI("http://127.0.0.1:9/prices"))
    expect(res.code).to eq("200")
  end

  it "totals" do
    expect(1 + 2).to eq(3)
  end
end
