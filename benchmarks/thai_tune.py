"""Tuning the Thai `search` bot's evaluation by matches: each candidate against the base weights.

Run: `python benchmarks/thai_tune.py [--games N] [--depth D] [--jobs J] CHANGE...`, where a
CHANGE is one or more `term=value` changes to `Weights`, joined by `+`
(`king=250`, `mobility=0+tempo=0`, `advance=0,3,6,9,12,15,18`); `--base` changes the
weights the candidates play against. Both sides search to the same fixed depth (no time limit,
so every game can be played again). Each game starts after a few random plies, and each such
opening is played twice, colours swapped. A game longer than 400 plies is a draw.
Prints each candidate's score and Elo difference with a rough 95% interval.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from referee.games import get_game
from referee.games.thai.rules import ThaiState
from referee.games.thai.search import Evaluation, SearchBot, Weights

GAME = get_game("thai")
RULESET = GAME.ruleset()
CAP = 400


def weights_of(change: str, base: Weights) -> Weights:
    values = {}
    for item in filter(None, change.split("+")):
        name, _, text = item.partition("=")
        default = getattr(base, name)
        values[name] = (
            tuple(int(v) for v in text.split(",")) if isinstance(default, tuple) else int(text)
        )
    return base._replace(**values)


def opening(seed: int, plies: int) -> ThaiState:
    rng = random.Random(seed)
    state = GAME.initial_state(RULESET)
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(rng.choice(moves))
    return state


def play(candidate: Weights, base: Weights, depth: int, seed: int, plies: int) -> float:
    """The candidate's score in the game of opening `seed`, candidate first when seed is even."""
    state = opening(seed // 2, plies)
    bots = []
    for weights in (candidate, base):
        bot = SearchBot(depth=depth, time=0)
        bot.evaluation = Evaluation(weights)
        bots.append(bot)
    seats = (0, 1) if seed % 2 == 0 else (1, 0)
    for bot, seat in zip(bots, seats, strict=True):
        bot.start_game(RULESET, seat, f"tune{seed}")
    by_seat = {seat: bot for bot, seat in zip(bots, seats, strict=True)}
    for _ in range(CAP):
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0.5
            return 1.0 if outcome.winner == seats[0] else 0.0
        state = state.play(by_seat[state.turn].choose(state))
    return 0.5


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("changes", nargs="+")
    parser.add_argument("--games", type=int, default=200, help="games per candidate (even)")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--plies", type=int, default=4, help="random plies of each opening")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--base", default="", help="changes to the default weights")
    args = parser.parse_args()
    base = weights_of(args.base, Weights())
    print(f"base: {base}")
    with ProcessPoolExecutor(args.jobs) as pool:
        for change in args.changes:
            started = time.perf_counter()
            candidate = weights_of(change, base)
            results = list(
                pool.map(
                    play,
                    [candidate] * args.games,
                    [base] * args.games,
                    [args.depth] * args.games,
                    range(args.games),
                    [args.plies] * args.games,
                )
            )
            score = sum(results) / len(results)
            # Pairs of games on one opening are the independent units.
            pairs = [results[i] + results[i + 1] for i in range(0, len(results) - 1, 2)]
            mean = sum(pairs) / len(pairs)
            spread = math.sqrt(sum((p - mean) ** 2 for p in pairs) / max(len(pairs) - 1, 1))
            margin = 1.96 * spread / math.sqrt(len(pairs)) / 2
            print(
                f"{change:40} {sum(results):6.1f}/{len(results)}  {elo(score):+6.0f} Elo "
                f"[{elo(score - margin):+.0f}, {elo(score + margin):+.0f}]  "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
