-module(shop_cart).
-export([new/0, add/4, count/1, total/1, format/1]).

new() -> [].

unused() -> ok.

add(Cart, Name, Cents, Quantity) when is_integer(Cents), Cents >= 0 ->
    Cart ++ [{Name, Cents, Quantity}].

count(Cart) -> lists:sum([Q || {_, _, Q} <- Cart]).

total(Cart) -> lists:sum([cents(P) * Q || {_, P, Q} <- Cart]).

format(Cents) -> lists:flatten(io_lib:format("~.2f EUR", [Cents / 100])).
