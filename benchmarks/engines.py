"""Engine speed per game: random playouts, legal-move generation, move-sequence counts.

Run: taskset -c 0 .venv/bin/python benchmarks/engines.py [--write]
A random playout samples the dice, lists the legal moves and plays one at random, to the end
of the game or its turn cap, as OpenSpiel's Python loop over its C++ games does.
"""

from __future__ import annotations

import argparse
import random
import time

from common import machine, median_seconds, report, table

from referee.games import GAME_NAMES, get_game
from referee.games.base import State, perft_counts
from referee.games.thai.fen import ENGLISH_START_FEN

PERFT_DEPTH = {"thax": 3, "trax": 4, "thai": 6, "takhteh": 2}


def playout(state: State, rng: random.Random, cap: int, seen: list[State] | None = None) -> int:
    """Play one random game; the number of actions (moves and rolls). The positions where a
    move was chosen go into `seen` when it is given."""
    actions = 0
    for _ in range(cap):
        if state.is_terminal():
            break
        if state.is_chance():
            outcomes = state.chance_outcomes()
            rolls = [roll for roll, _ in outcomes]
            weights = [p for _, p in outcomes]
            state = state.apply_chance(rng.choices(rolls, weights)[0])
        else:
            if seen is not None:
                seen.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        actions += 1
    return actions


def measure(name: str, games: int) -> list[str]:
    game = get_game(name)
    start = game.initial_state(game.ruleset())
    rng = random.Random(1)
    counted: list[int] = []

    def playouts() -> None:
        counted.clear()
        for _ in range(games):
            counted.append(playout(start, rng, game.turn_cap * 2))

    seconds = median_seconds(playouts)
    positions: list[State] = []
    for _ in range(20):
        playout(start, rng, game.turn_cap * 2, positions)
    generation = median_seconds(lambda: [s.legal_moves() for s in positions]) / len(positions)
    depth = PERFT_DEPTH[name]
    started = time.perf_counter()
    counts = perft_counts(start, depth)
    perft_time = time.perf_counter() - started
    return [
        name,
        f"{games / seconds:,.0f}",
        f"{sum(counted) / seconds:,.0f}",
        f"{1 / generation:,.0f}",
        f"depth {depth}: {counts[-1]:,} in {perft_time:.2f} s",
    ]


def fixed_depths() -> list[list[str]]:
    """The counts issue 10 sets a time for: Trax depth 5 from the empty board, and Thai
    checkers depth 7 from the English 12-man start."""
    trax, thai = get_game("trax"), get_game("thai")
    cases = [
        ("trax, empty board", trax.initial_state(trax.ruleset()), 5, "under 30 s"),
        (
            "thai, English 12-man start",
            thai.parse_position(thai.ruleset(), ENGLISH_START_FEN),
            7,
            "under 10 s",
        ),
    ]
    rows = []
    for label, start, depth, target in cases:
        counts: list[int] = []

        def count(start: State = start, depth: int = depth, counts: list[int] = counts) -> None:
            counts[:] = perft_counts(start, depth)

        seconds = median_seconds(count, runs=3)
        rows.append([label, str(depth), f"{counts[-1]:,}", f"{seconds:.2f}", target])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random playouts per run")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    rows = [measure(name, args.games) for name in GAME_NAMES]
    headers = ["game", "random games/s", "actions/s", "legal-move lists/s", "perft"]
    text = f"Machine: {machine()}; one core; median of 5 runs.\n\n" + table(headers, rows)
    fixed = table(["position", "depth", "count", "seconds (median of 3)", "target"], fixed_depths())
    text += "\n\nMove-sequence counts at the depths issue 10 times:\n\n" + fixed
    report(
        "engines",
        "Engines",
        "taskset -c 0 .venv/bin/python benchmarks/engines.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
