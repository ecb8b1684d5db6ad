#!/usr/bin/env escript
-mode(compile).

main(_) ->
    {ok, Total} = total([]),
    io:format("~p~n", [Total]).

total([]) -> {error, empty};
total(Xs) -> {ok, lists:sum(Xs)}.
