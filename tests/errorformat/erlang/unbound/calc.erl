-module(calc).
-export([add/2]).

add(A, B) ->
    A + C.

unused() -> ok.
