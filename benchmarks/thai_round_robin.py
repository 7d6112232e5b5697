"""A round robin of Thai checkers bots, each pairing played with colours swapped.

Run: `python benchmarks/thai_round_robin.py [games per pairing] [bot spec ...]`
(defaults: 50 games, `random greedy alphabeta:depth=4,time=0`). Prints each pairing's score
and each bot's total; a win counts 1, a draw (by the rules or the 400-ply cap) 1/2.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter

from referee.games import get_game
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game

DEFAULT_BOTS = ("random", "greedy", "alphabeta:depth=4,time=0")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    specs = tuple(sys.argv[2:]) or DEFAULT_BOTS
    game = get_game("thai")
    ruleset = game.ruleset()
    totals: Counter[str] = Counter()
    played: Counter[str] = Counter()
    started = time.perf_counter()
    for a, b in itertools.combinations(specs, 2):
        score = {a: 0.0, b: 0.0}
        ends: Counter[str] = Counter()
        for number in range(games):
            black, white = (a, b) if number % 2 == 0 else (b, a)
            players = [Player(name=s, kind="bot", spec=s) for s in (black, white)]
            bots = [make_bot("thai", black), make_bot("thai", white)]
            record = play_game(GameSetup(game, ruleset, players, f"{a}|{b}|{number // 2}"), bots)
            result = record.result
            assert result is not None
            ends[result.detail or result.reason.value] += 1
            if result.winner is None:
                score[black] += 0.5
                score[white] += 0.5
            else:
                score[(black, white)[result.winner]] += 1
        for spec in (a, b):
            totals[spec] += score[spec]
            played[spec] += games
        print(f"{a} {score[a]:g} - {score[b]:g} {b}   ({dict(ends)})")
    print()
    for spec in sorted(specs, key=lambda s: -totals[s]):
        print(f"{spec:32} {totals[spec]:6g} / {played[spec]}")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
