require "minitest/autorun"
require "socket"

class ClientTest < Minitest::Test
  def test_fetches_prices
    sock = TCPSocket.new("127.0.0.1", 9)
    assert_equal "ok", sock.gets
  end

  def test_totals
    assert_equal 3, 1 + 2
  end
end
