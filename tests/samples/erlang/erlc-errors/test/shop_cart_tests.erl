-module(shop_cart_tests).
-include_lib("eunit/include/eunit.hrl").

cart() -> shop_cart:add(shop_cart:add(shop_cart:new(), tea, 350, 2), cake, 420, 1).

empty_test() -> ?assertEqual(0, shop_cart:count(shop_cart:new())).

count_test() -> ?assertEqual(3, shop_cart:count(cart())).

total_test() -> ?assertEqual("11.20 EUR", shop_cart:format(shop_cart:total(cart()))).
