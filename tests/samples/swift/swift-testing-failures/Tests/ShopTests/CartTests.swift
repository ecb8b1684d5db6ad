import Testing
@testable import Shop

@Suite struct CartTests {
    let cart: Cart = {
        var cart = Cart()
        cart.add("tea", Price(cents: 350), quantity: 2)
        cart.add("cake", Price(cents: 420))
        return cart
    }()

    @Test func countsTheQuantities() {
        #expect(cart.count == 3)
    }
}
