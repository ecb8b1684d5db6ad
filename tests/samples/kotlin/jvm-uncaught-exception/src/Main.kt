package shop

fun main() {
    val cart = Cart().add("tea", Price(350), 2).add("cake", Price(420, "USD"))
    println("Total: ${cart.total()}")
}
