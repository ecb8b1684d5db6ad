package shop

final case class Price(cents: Int, currency: String = "EUR") {
  def +(other: Price): Price = {
    require(other.currency == currency, "currency mismatch")
    Price(cents + other.cents, currency)
  }

  override def toString: String = f"${cents / 100.0}%.2f $currency"
}
