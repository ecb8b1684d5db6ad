package shop

import org.scalatest.flatspec.AnyFlatSpec
import org.scalatest.matchers.should.Matchers

class CartSpec extends AnyFlatSpec with Matchers {
  "A Cart" should "start empty" in {
    new Cart().count shouldBe 0
  }

  it should "count the quantities" in {
    val cart = new Cart().add("tea", Price(350), 2).add("cake", Price(420))
    cart.count shouldBe 3
  }

  it should "total the prices" in {
    val cart = new Cart().add("tea", Price(350), 2).add("cake", Price(420))
    cart.total.toString shouldBe "11.30 EUR"
  }
}
