package shop

object Main {
  def main(args: Array[String]): Unit = {
    val cart = new Cart().add("tea", Price(350), 2).add("cake", Price(420))
    println(s"Total: ${cart.total}")
  }
}
