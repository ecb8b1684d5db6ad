package shop

class Cart {
    private val items = mutableListOf<Triple<String, Price, Int>>()

    fun add(name: String, price: Price, quantity: Int = 1): Cart {
        items.add(Triple(name, price, quantity))
        return this
    }

    fun count(): Int = items.sumBy { it.third }

    fun total(): Price = items.fold(Price(0)) { sum, (_, price, quantity) -> sum + Price(price.cent * quantity) }
}
