package shop

data class Price(val cents: Int, val currency: String = "EUR") {
    operator fun plus(other: Price): Price {
        require(other.currency == currency) { "currency mismatch" }
        return Price(cents + other.cents, currency)
    }

    override fun toString(): String = String.format("%.2f %s", cents / 100.0, currency)
}
