public struct Price: Equatable {
    public let cents: Int
    public let currency: String

    public init(cents: Int, currency: String = "EUR") {
        self.cents = cents
        self.currency = currency
    }
}

public struct Cart {
    public private(set) var items: [(name: String, price: Price, quantity: Int)] = []

    public init() {}

    public mutating func add(_ name: String, _ price: Price, quantity: Int = 1) {
        items.append((name, price, quantity))
    }

    public var count: Int { items.count }

    public var total: Int { items.reduce(0) { $0 + $1.price.cents * $1.quantity } }

    public func price(of name: String) -> Price {
        guard let item = items.first(where: { $0.name == name }) else {
            fatalError("no item named \(name)")
        }
        return item.price
    }
}
