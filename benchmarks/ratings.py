"""Benchmark: the rating table of 1,000,000 synthetic games, and reading records.

Run: taskset -c 0 .venv/bin/python benchmarks/ratings.py [--games N] [--bots N...] [--runs N]

The games are drawn from known ratings as colour-swapped pairs of one tournament, straight
into a games frame (as `read_games` makes it), so that the table's own cost is measured:
counting, the joint fit, the robust (or information) intervals, LOS, the incremental Elo
loop and the Markdown output. Reading records is measured apart on fewer records, since it
grows with the size of each record (its turns) and not with the table. Prints the median
CPU time and its range over several runs; docs/benchmarks.md holds a result.
"""

from __future__ import annotations

# ruff: noqa: E402 - numpy must load after the thread limits below are set.
import argparse
import io
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# One core, as the target says: no BLAS threads (set before numpy loads).
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

import numpy as np
import pandas as pd

from referee.ratings import RatingOptions, build_tables, read_games
from referee.ratings.output import render
from referee.ratings.results import Games, make_frame
from referee.records.io import write_jsonl
from referee.records.model import EventInfo, Player, Result, ThaxRecord, Turn


def synthetic_games(games: int, bots: int, seed: int = 0) -> Games:
    """`games` games between `bots` bots with ratings spread over 600 Elo, in pairs."""
    rng = np.random.default_rng(seed)
    ratings = np.linspace(-300, 300, bots)
    pairs = games // 2
    first = rng.integers(0, bots, pairs)
    second = (first + rng.integers(1, bots, pairs)) % bots
    white = np.stack([first, second], axis=1).ravel()
    black = np.stack([second, first], axis=1).ravel()
    expected = 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))
    draw = 0.5 * np.minimum(expected, 1 - expected)
    u = rng.random(len(white))
    winner = np.where(u < expected - draw / 2, 0, np.where(u < expected + draw / 2, -1, 1))
    names = [f"bot{i:02d}" for i in range(bots)]
    size = len(white)
    number = np.arange(size)
    return Games(
        make_frame(
            {
                "game": pd.Categorical.from_codes(np.zeros(size, dtype=int), ["thax"]),
                "variant": pd.Categorical.from_codes(np.zeros(size, dtype=int), ["standard"]),
                "white": pd.Categorical.from_codes(white, names),
                "black": pd.Categorical.from_codes(black, names),
                "winner": winner,
                "first": rng.integers(0, 2, size),
                "points": (winner >= 0).astype(np.int64),
                "reason": pd.Categorical.from_codes(np.zeros(size, dtype=int), ["rules"]),
                "tournament": np.full(size, "bench", dtype=object),
                "pairing": number // 2,
                "game_number": number,
                "file": pd.Categorical.from_codes(np.zeros(size, dtype=int), ["games.jsonl"]),
                "line": number + 1,
            }
        )
    )


def _runs(action: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return times


def _table_time(games: Games, options: RatingOptions) -> None:
    render(build_tables(games, options), "markdown")


def _record(number: int) -> ThaxRecord:
    """A record of the size of a finished THAX game (36 turns with rolls and times)."""
    turns = [
        Turn(seat=i % 2, roll=[1 + i % 6, 1 + (i * 5) % 6], move=f"{1 + i % 9}", time_ms=3)
        for i in range(36)
    ]
    return ThaxRecord(
        game="thax",
        ruleset="thax/standard@1",
        players=[Player(name="greedy", kind="bot"), Player(name="random", kind="bot")],
        event=EventInfo(tournament="bench", pairing=number // 2, game_number=number),
        opening_rolls=[[3, 5]],
        turns=turns,
        result=Result(winner=number % 2, points=1, reason="rules"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--bots", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--records", type=int, default=20_000)
    args = parser.parse_args()

    rows = []
    for bots in args.bots:
        games = synthetic_games(args.games, bots)
        for label, options in (
            ("table, robust (default)", RatingOptions()),
            ("table, observed information", RatingOptions(interval="information")),
        ):
            times = _runs(
                lambda games=games, options=options: _table_time(games, options), args.runs
            )
            rows.append((f"{len(games.frame):,} games, {bots} bots: {label}", times))

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        write_jsonl(path, (_record(i) for i in range(args.records)))
        times = _runs(lambda: read_games([path]), args.runs)
        rows.append((f"read_games, {args.records:,} THAX records (JSONL)", times))

    out = io.StringIO()
    out.write(f"Python {platform.python_version()}, numpy {np.__version__}, ")
    out.write(f"pandas {pd.__version__}, {platform.machine()}; {args.runs} runs each\n\n")
    out.write("| what | median CPU (s) | range (s) |\n| :--- | ---: | ---: |\n")
    for label, times in rows:
        spread = f"{min(times):.2f}-{max(times):.2f}"
        out.write(f"| {label} | {statistics.median(times):.2f} | {spread} |\n")
    print(out.getvalue(), end="")


if __name__ == "__main__":
    main()
