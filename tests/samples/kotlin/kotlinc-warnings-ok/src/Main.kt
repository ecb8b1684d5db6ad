package shop

fun main() {
    val unused = 0
    val cart = Cart().add("tea", Price(350), 2).add("cake", Price(420))
    println("Total: ${cart.total()}")
}
