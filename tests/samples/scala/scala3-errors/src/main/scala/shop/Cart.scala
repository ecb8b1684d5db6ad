package shop

final class Cart {
  private var items = Vector.empty[(String, Price, Int)]

  def add(name: String, price: Price, quantity: Int = 1): Cart = {
    items :+= ((name, price, quantity))
    this
  }

  def count: String = items.map(_._3).sum

  def total: Price = items.foldLeft(Price(0)) { case (sum, (_, price, quantity)) => sum + Price(price.cent * quantity) }
}
