-module(shop_cart).
-export([main/0, price/2]).

price(Item, Prices) ->
    maps:get(Item, Prices).

main() ->
    Prices = #{apple => 3},
    io:format("~p~n", [price(pear, Prices)]).
