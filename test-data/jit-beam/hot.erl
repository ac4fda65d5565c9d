%% SPDX-License-Identifier: MIT
%% The workload of the jit-beam recording: for Secs seconds, a tail-recursive
%% hot loop of our own (loop/3, an FNV-1a style hash) and OTP's own library
%% code: lists:sort/1 of a shuffled list, binary:split/3 of a text and
%% ets:lookup/2 in a set table.
-module(hot).
-export([main/1]).

main([SecsArg]) ->
    Secs = list_to_integer(SecsArg),
    End = erlang:monotonic_time(millisecond) + Secs * 1000,
    rand:seed(exsss, {1, 2, 3}),
    L = [rand:uniform(1000000) || _ <- lists:seq(1, 20000)],
    Text = iolist_to_binary([[integer_to_binary(N), <<", ">>] || N <- lists:sublist(L, 5000)]),
    T = ets:new(t, [set]),
    [ets:insert(T, {N, N * 2}) || N <- lists:seq(1, 10000)],
    {Rounds, Acc} = run(End, L, Text, T, 0, 0),
    io:format("rounds ~p acc ~p~n", [Rounds, Acc]),
    halt().

run(End, L, Text, T, Rounds, Acc) ->
    case erlang:monotonic_time(millisecond) < End of
        false -> {Rounds, Acc};
        true ->
            H = loop(200000, Rounds, 2166136261),
            S = lists:sort(L),
            Parts = binary:split(Text, <<", ">>, [global]),
            E = lookups(T, 10000, 0),
            run(End, L, Text, T, Rounds + 1,
                (Acc + H + hd(S) + length(Parts) + E) band 16#ffffffff)
    end.

%% tail-recursive: the hot loop of our own
loop(0, _, H) -> H;
loop(N, X, H) -> loop(N - 1, X, ((H bxor ((N + X) band 255)) * 16777619) band 16#ffffffff).

lookups(_, 0, Acc) -> Acc;
lookups(T, N, Acc) ->
    [{_, V}] = ets:lookup(T, N),
    lookups(T, N - 1, Acc + V).
