# frozen_string_literal: true

module Shop
  # A price in cents, with its currency.
  class Price
    attr_reader :cents, :currency

    def initialize(cents, currency = "EUR")
      @cents = Integer(cents)
      @currency = currency
    end

    def +(other)
      raise ArgumentError, "currency mismatch" unless other.currency == currency)

      Price.new(cents + other.cents, currency)
    end

    def to_s
      format("%<amount>.2f %<currency>s", amount: cents / 100.0, currency: currency)
    end
  end
end
