import XCTest
@testable import Shop

final class CartTests: XCTestCase {
    private func cart() -> Cart {
        var cart = Cart()
        cart.add("tea", Price(cents: 350), quantity: 2)
        cart.add("cake", Price(cents: 420))
        return cart
    }

    func testCount() {
        XCTAssertEqual(cart().count, 3)
    }

    func testTotal() {
        XCTAssertEqual(cart().total, 1120)
    }
}
