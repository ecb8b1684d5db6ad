#!/usr/bin/env escript
-mode(compile).

main(_) ->
    try total([]) of
        Total -> io:format("~p~n", [Total])
    catch
        error:Reason -> io:format("handled: exception error: ~p (0 crashes)~n", [Reason])
    end.

total([]) -> error(empty);
total(Xs) -> lists:sum(Xs).
