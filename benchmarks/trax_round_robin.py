"""Round robin of Trax bots with colours swapped: `python benchmarks/trax_round_robin.py`.

Every pair of bots plays `--games` games (half with each colour) through the tournament game
loop; the table gives each bot's score (win 1, draw 1/2) per pairing and in all.
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor

from referee.games.trax import GAME
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game


def play(job: tuple[str, str, str, int]) -> tuple[str, str, float, str, int]:
    """One game: (first spec, second spec, first's score, how it ended, turns)."""
    variant, first, second, index = job
    specs = (first, second) if index % 2 == 0 else (second, first)
    bots = [make_bot("trax", spec) for spec in specs]
    players = [Player(name=spec, kind="bot", spec=spec) for spec in specs]
    record = play_game(
        GameSetup(GAME, GAME.ruleset(variant), players, f"rr/{first}/{second}/{index}"), bots
    )
    result = record.result
    assert result is not None
    score = 0.5 if result.winner is None else float(specs[result.winner] == first)
    ending = f"{result.reason.value} {result.detail or ''}".strip()
    return first, second, score, ending, len(record.turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="standard", choices=GAME.variants)
    parser.add_argument("--games", type=int, default=50, help="games per pairing (even)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("bots", nargs="*", default=["random", "greedy", "search"])
    args = parser.parse_args()
    jobs = [
        (args.variant, first, second, index)
        for first, second in itertools.combinations(args.bots, 2)
        for index in range(args.games)
    ]
    started = time.perf_counter()
    totals = dict.fromkeys(args.bots, 0.0)
    pairs: dict[tuple[str, str], list[float]] = {}
    endings: dict[str, int] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for first, second, score, ending, _ in pool.map(play, jobs):
            pairs.setdefault((first, second), []).append(score)
            totals[first] += score
            totals[second] += 1 - score
            endings[ending] = endings.get(ending, 0) + 1
    print(f"variant {args.variant}, {args.games} games a pairing, colours swapped")
    for (first, second), scores in pairs.items():
        won = sum(scores)
        print(f"  {first} - {second}: {won:g} - {len(scores) - won:g}")
    for name, total in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {name}: {total:g} of {args.games * (len(args.bots) - 1)}")
    print(f"  endings: {dict(sorted(endings.items()))}")
    print(f"  {time.perf_counter() - started:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
