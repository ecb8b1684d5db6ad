RSpec.describe "config" do
  it "reads the database url" do
    url = ENV.fetch("SHOP_DATABASE_URL")
    expect(url).to start_with("postgres://")
  end
end
