"""Benchmark: `referee ratings` over a million THAX records, and rating tables at scale.

Run: .venv/bin/python benchmarks/ratings.py [--games N] [--runs N] [--write]

Part one is the whole command as a user runs it: a JSONL file of `--games` THAX records
between 10 bots (the turns of real games played first by a small random-vs-greedy tournament,
with new players, pairings and results drawn from known ratings, as colour-swapped pairs) is
rated by `referee ratings` in a child process, its CPU time (user + system) taken from the
operating system: with `--no-cache`, reading the file, and without, reading the summary that
a first run (before the timed ones) kept of the file. Beside them, in alternating runs, two
`python -c` runs that only read the
file: each line decoded by msgspec into Python objects (`msgspec.json.decode`), and each line
decoded into a struct of just the fields the table needs (the least any msgspec reader does).

Part two is the table alone at scale, in this process: synthetic games go straight into the
games frame, then the fit with its intervals, LOS, the incremental Elo column and the
Markdown output are timed (CPU), for 10 and 50 bots over a million games, and for 500 and
1,000 bots on a sparse pairing graph (each bot meets about 20 others) with the bootstrap and
the information intervals.

Prints the median CPU time and its range over `--runs` runs, the CPU model and the load
average; `--write` puts the result into its section of docs/benchmarks.md.
"""

from __future__ import annotations

# ruff: noqa: E402 - numpy must load after the thread limits below are set.
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# One core: no BLAS threads (set before numpy loads), as the other benchmarks.
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

import numpy as np
import pandas as pd
from common import machine, report, table

from referee.ratings.output import render
from referee.ratings.results import Games, make_frame
from referee.ratings.table import RatingOptions, build_tables

SOURCE_GAMES = 200
"""Real THAX games played first, whose turns the records of part one carry."""


def _outcomes(
    rng: np.random.Generator, seat0: np.ndarray, seat1: np.ndarray, ratings: np.ndarray
) -> np.ndarray:
    """Seat 0 wins (0), draws (-1) or loses (1), drawn from the ratings."""
    expected = 1 / (1 + 10 ** ((ratings[seat1] - ratings[seat0]) / 400))
    draw = 0.5 * np.minimum(expected, 1 - expected)
    u = rng.random(len(seat0))
    return np.where(u < expected - draw / 2, 0, np.where(u < expected + draw / 2, -1, 1))


def _pairs(rng: np.random.Generator, games: int, bots: int, degree: int | None) -> np.ndarray:
    """(games // 2, 2) the two bots of each colour-swapped pair: any two bots, or with
    `degree`, only neighbours on a ring of bots (each meets `degree` others: a sparse graph)."""
    count = games // 2
    first = rng.integers(0, bots, count)
    if degree is None:
        second = (first + rng.integers(1, bots, count)) % bots
    else:
        step = rng.integers(1, degree // 2 + 1, count) * rng.choice([-1, 1], count)
        second = (first + step) % bots
    return np.stack([first, second], axis=1)


def synthetic_games(games: int, bots: int, seed: int = 0, degree: int | None = None) -> Games:
    """`games` games between `bots` bots with ratings spread over 600 Elo, in pairs."""
    rng = np.random.default_rng(seed)
    ratings = np.linspace(-300, 300, bots)
    pairs = _pairs(rng, games, bots, degree)
    seat0, seat1 = pairs.ravel(), pairs[:, ::-1].ravel()
    winner = _outcomes(rng, seat0, seat1, ratings)
    names = [f"bot{i:04d}" for i in range(bots)]
    size = len(seat0)
    number = np.arange(size)
    one = np.zeros(size, dtype=int)
    return Games(
        make_frame(
            {
                "game": pd.Categorical.from_codes(one, ["thax"]),
                "variant": pd.Categorical.from_codes(one, ["standard"]),
                "seat0": pd.Categorical.from_codes(seat0, names),
                "seat1": pd.Categorical.from_codes(seat1, names),
                "winner": winner,
                "first": rng.integers(0, 2, size),
                "points": (winner >= 0).astype(np.int64),
                "reason": pd.Categorical.from_codes(one, ["rules"]),
                "tournament": np.full(size, "bench", dtype=object),
                "pairing": number // 2,
                "game_number": number,
                "file": pd.Categorical.from_codes(one, ["games.jsonl"]),
                "line": number + 1,
            }
        )
    )


def _play_source(folder: Path) -> list[dict[str, object]]:
    """Real THAX games, random against greedy, played by `referee tournament run`."""
    out = folder / "source"
    command = [sys.executable, "-m", "referee", "tournament", "run", "--out", str(out)]
    command += ["-g", "thax", "--bots", "random,greedy", "--games-per-pair", str(SOURCE_GAMES)]
    subprocess.run([*command, "-q"], check=True, stdout=subprocess.DEVNULL)
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def write_records(path: Path, games: int, bots: int, source: list[dict[str, object]]) -> float:
    """`games` records as referee writes them (one JSON object a line); returns the mean
    line length. Each carries the turns and opening rolls of a source game."""
    rng = np.random.default_rng(1)
    pairs = _pairs(rng, games, bots, None)
    seat0, seat1 = pairs.ravel(), pairs[:, ::-1].ravel()
    winner = _outcomes(rng, seat0, seat1, np.linspace(-300, 300, bots))
    turns = [json.dumps(game["turns"]) for game in source]
    rolls = [
        f', "opening_rolls": {json.dumps(game["opening_rolls"])}' if "opening_rolls" in game else ""
        for game in source
    ]
    players = [
        [
            json.dumps(
                [{"name": f"bot{a:02d}", "kind": "bot"}, {"name": f"bot{b:02d}", "kind": "bot"}]
            )
            for b in range(bots)
        ]
        for a in range(bots)
    ]
    results = {
        0: '{"winner": 0, "points": 1, "reason": "rules"}',
        1: '{"winner": 1, "points": 1, "reason": "rules"}',
        -1: '{"winner": null, "points": 0, "reason": "rules"}',
    }
    head = '{"format": "referee", "version": 1, "game": "thax", "ruleset": "thax/standard@1"'
    size = 0
    with path.open("w", encoding="utf-8") as stream:
        for number, (a, b, won) in enumerate(
            zip(seat0.tolist(), seat1.tolist(), winner.tolist(), strict=True)
        ):
            line = (
                f'{head}, "players": {players[a][b]}, "event": {{"tournament": "bench", '
                f'"pairing": {number // 2}, "game_number": {number}}}, '
                f'"turns": {turns[number % len(turns)]}, "result": {results[won]}'
                f"{rolls[number % len(rolls)]}}}\n"
            )
            size += len(line)
            stream.write(line)
    return size / games


READ_ONLY = {
    "decoded": "import msgspec,sys\nd=msgspec.json.decode\nfor l in open(sys.argv[1],'rb'): d(l)",
    "struct": (
        "import msgspec,sys\n"
        "class P(msgspec.Struct): name: str\n"
        "class R(msgspec.Struct): winner: int|None; points: int; reason: str\n"
        "class E(msgspec.Struct): tournament: str|None=None; pairing: int|None=None; "
        "game_number: int|None=None\n"
        "class H(msgspec.Struct): game: str; ruleset: str; players: list[P]; event: E; "
        "result: R|None=None\n"
        "d=msgspec.json.Decoder(H).decode\nfor l in open(sys.argv[1],'rb'): d(l)"
    ),
}
"""The `python -c` runs that only read the file with msgspec."""


ORDO = (
    "Ordo is not on PyPI, so it does not run here: issue 18 gives 1.6 s of CPU for Ordo "
    "rating the same 1,000,000 results written as PGN (results only), measured by the "
    "issue's author on a machine of this class. `referee ratings` reads the records "
    "themselves: it skims each line (the turn list cut out by byte search, the rest decoded "
    "and checked by msgspec), which is most of its time on lines of 2.8 KB. Once a big file "
    "is read, it keeps a summary of it (docs/ratings.md) and reads that while the file is "
    "unchanged: the second row is such a later run, the first reads the file as a first "
    "run does (less the summary's writing)."
)


def child_cpu(command: list[str], environment: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of a child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_rows(games: int, runs: int) -> tuple[list[tuple[str, list[float]]], str]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "games.jsonl"
        length = write_records(path, games, 10, _play_source(folder))
        referee = [sys.executable, "-m", "referee", "ratings"]
        # The summary kept by a first run: read in place of the file by the runs after it.
        kept = {**os.environ, "REFEREE_CACHE_DIR": str(folder / "summaries")}
        subprocess.run([*referee, str(path)], check=True, stdout=subprocess.DEVNULL, env=kept)
        commands = {
            "`referee ratings --no-cache FILE` (whole command, the file read)": [
                *referee, "--no-cache", str(path)
            ],
            "`referee ratings FILE` (whole command, the file's summary read)": [
                *referee, str(path)
            ],
            "`python -c`: msgspec decodes each line": [
                sys.executable, "-c", READ_ONLY["decoded"], str(path)
            ],
            "`python -c`: msgspec decodes the table's fields of each line": [
                sys.executable, "-c", READ_ONLY["struct"], str(path)
            ],
        }  # fmt: skip
        times: dict[str, list[float]] = {label: [] for label in commands}
        for _ in range(runs):  # alternating, so that all meet the same load
            for label, command in commands.items():
                times[label].append(child_cpu(command, kept))
        size = path.stat().st_size
    note = (
        f"{games:,} THAX records, 10 bots, {size / 1e9:.2f} GB "
        f"(a line {length:,.0f} bytes on average)"
    )
    return [(f"{label}, {games:,} records", spread) for label, spread in times.items()], note


def _cpu_runs(action: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return times


def table_rows(games: int, runs: int) -> list[tuple[str, list[float]]]:
    cases = [
        (games, 10, None, "robust (default)", RatingOptions()),
        (games, 50, None, "robust (default)", RatingOptions()),
        (200_000, 500, 20, "bootstrap, 1,000 samples", RatingOptions(interval="bootstrap")),
        (200_000, 500, 20, "robust (default)", RatingOptions()),
        (400_000, 1000, 20, "information", RatingOptions(interval="information")),
        (400_000, 1000, 20, "robust (default)", RatingOptions()),
    ]
    rows = []
    for count, bots, degree, label, options in cases:
        frame = synthetic_games(count, bots, degree=degree)
        graph = "all pairs" if degree is None else f"each meets {degree}"
        times = _cpu_runs(
            lambda frame=frame, options=options: render(build_tables(frame, options), "markdown"),
            runs,
        )
        rows.append((f"table: {count:,} games, {bots} bots ({graph}), {label}", times))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-command", action="store_true", help="only the tables")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()

    loads = [Path("/proc/loadavg").read_text().split()[0]]
    rows: list[tuple[str, list[float]]] = []
    note = ""
    if not args.skip_command:
        rows, note = command_rows(args.games, args.runs)
        loads.append(Path("/proc/loadavg").read_text().split()[0])
    rows += table_rows(args.games, args.runs)
    loads.append(Path("/proc/loadavg").read_text().split()[0])
    body = table(
        ["what", "median CPU (s)", "range (s)"],
        [
            [label, f"{statistics.median(times):.2f}", f"{min(times):.2f}-{max(times):.2f}"]
            for label, times in rows
        ],
    )
    text = (
        f"{machine()}; numpy {np.__version__}, pandas {pd.__version__}; one BLAS thread; "
        f"{args.runs} runs each, load average {' / '.join(loads)} (start / middle / end)."
        + (f"\n\nThe file: {note}." if note else "")
        + f"\n\n{body}\n\n{ORDO}"
    )
    report(
        "ratings",
        "Rating tables",
        "benchmarks/ratings.py",
        text,
        args.write and not args.skip_command,
    )


if __name__ == "__main__":
    main()
