"""Round robin of Takhteh bots over duplicate dice.

Each pair of games uses one seed with the bots swapped, so both bots play the same dice from
each seat. Prints, for every pairing, the points and games won by each bot.

    python benchmarks/takhteh_round_robin.py [pairs] [bot spec ...]
"""

from __future__ import annotations

import itertools
import sys
import time

from referee.games.takhteh import GAME
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game


def pairing(first: str, second: str, pairs: int) -> tuple[dict[str, int], dict[str, int], float]:
    ruleset = GAME.ruleset()
    points = {first: 0, second: 0}
    wins = {first: 0, second: 0}
    started = time.perf_counter()
    for index in range(pairs):
        for specs in ((first, second), (second, first)):
            bots = [make_bot("takhteh", spec) for spec in specs]
            players = [Player(name=spec, kind="bot", spec=spec) for spec in specs]
            record = play_game(GameSetup(GAME, ruleset, players, f"takhteh-rr-{index}"), bots)
            result = record.result
            assert result is not None
            if result.winner is not None:
                points[specs[result.winner]] += result.points
                wins[specs[result.winner]] += 1
    return points, wins, time.perf_counter() - started


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    specs = sys.argv[2:] or ["random", "greedy", "expectimax"]
    print(f"{'pairing':32} {'games':>5} {'points':>15} {'wins':>11} {'seconds':>8}")
    for first, second in itertools.combinations(specs, 2):
        points, wins, seconds = pairing(first, second, pairs)
        print(
            f"{first + ' vs ' + second:32} {2 * pairs:5d} "
            f"{points[first]:7d}-{points[second]:<7d} {wins[first]:5d}-{wins[second]:<5d} "
            f"{seconds:8.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
