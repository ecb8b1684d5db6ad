import 'package:shop/cart.dart';

void main() {
  final cart = Cart()..add(const Item('tea', Price(350), 2));
  print('Cake: ${cart.find('cake').price.cents}');
}
