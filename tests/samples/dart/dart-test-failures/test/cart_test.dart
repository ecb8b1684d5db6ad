import 'package:shop/cart.dart';
import 'package:test/test.dart';

void main() {
  Cart cart() => Cart()
    ..add(const Item('tea', Price(350), 2))
    ..add(const Item('cake', Price(420)));

  test('counts the quantities', () {
    expect(cart().count, equals(3));
  });

  test('totals the prices', () {
    expect(formatPrice(cart().total), equals('11.20 EUR'));
  });
}
