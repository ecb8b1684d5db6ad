class Price {
  final int cents;
  final String currency;

  const Price(this.cents, [this.currency = 'EUR']);
}

class Item {
  final String name;
  final Price price;
  final int quantity;

  const Item(this.name, this.price, [this.quantity = 1]);
}

class Cart {
  final List<Item> items = [];

  void add(Item item) => items.add(item);

  int get count => items.fold(0, (sum, item) => sum + item.quantity);

  int get total => items.fold(0, (sum, item) => sum + item.price.cents * item.quantity);

  Item find(String name) => items.firstWhere((item) => item.name == name);
}

String formatPrice(int cents) => '${(cents / 100).toStringAsFixed(2)} EUR';
