"""Benchmark: `referee ratings` over a million THAX records, and rating tables at scale.

Run: [ORDO=/path/to/ordo] .venv/bin/python benchmarks/ratings.py [--games N] [--runs N] [--write]

Part one is the whole command as a user runs it: a JSONL file of `--games` THAX records
between 10 bots (the turns of real games played first by a small random-vs-greedy tournament,
with new players, pairings and results drawn from known ratings, as colour-swapped pairs) is
rated by `referee ratings` in a child process, its CPU time (user + system) taken from the
operating system: with `--no-cache`, reading the file, and without, reading the summary that
a first run (before the timed ones) kept of the file. Beside them, in alternating runs, two
`python -c` runs that only read the
file: each line decoded by msgspec into Python objects (`msgspec.json.decode`), and each line
decoded into a struct of just the fields the table needs (the least any msgspec reader does).

Ordo, the C rating program, is the anchor: when the environment variable ORDO names its
binary, the same games' results are written once as PGN by `referee export --format pgn`
(before the timed runs; results only, the movetext is the result token), and Ordo rates that
file as two more rows of the same alternating runs: `ordo -q -a 0 -W -D -p FILE` (the
ratings, White's advantage and the draw rate fitted, no errors) and the same with `-s 100`
(errors from 100 simulations, since `referee ratings` gives intervals by default). Ordo is not
on PyPI: build it outside the repository, `git clone https://github.com/michiguel/Ordo
/tmp/ordo-src && make -C /tmp/ordo-src` (plain C, its own Makefile), then run with
`ORDO=/tmp/ordo-src/ordo` (a path, or a name on PATH). Without ORDO, or when it names no
executable, the anchor is skipped, and the text written says so.

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
import re
import resource
import shutil
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
from common import machine, ratios, report, table

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
                "match_game": np.zeros(size, dtype=np.int64),  # no game is in a match
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


READING = (
    "`referee ratings` reads the records themselves: it skims each line (the turn list cut "
    "out by byte search, the rest decoded and checked by msgspec), which is most of its time "
    "on lines of 2.8 KB. Once a big file is read, it keeps a summary of it (docs/ratings.md) "
    "and reads that while the file is unchanged: the second row is such a later run, the "
    "first reads the file as a first run does (less the summary's writing)."
)
"""What the referee rows read, under the table."""

ORDO_OPTIONS = ["-q", "-a", "0", "-W", "-D"]
"""Ordo's plain rating run, set as `referee ratings` runs by default: quiet (no progress on
the screen), pool average 0 (`-a 0`; Ordo's own default is 2300), White's advantage fitted
(`-W`, as `--seat-advantage fit`) and the draw rate between equal players fitted (`-D`, as
referee reports the draw rate); the ranking goes to standard output, as referee's table."""

ORDO_SIMULATIONS = 100
"""Ordo's errors come only from simulations (`-s N`, each replays every game and refits);
its manual calls 100 "a minimum reasonable number"."""

ORDO_BUILD = "`git clone https://github.com/michiguel/Ordo && make -C Ordo`"


def ordo_binary() -> str | None:
    """The Ordo binary that the environment variable ORDO names (a path, or a name on PATH),
    or None, said on screen."""
    given = os.environ.get("ORDO")
    if not given:
        print("ORDO is not set; the Ordo anchor is skipped")
        return None
    binary = shutil.which(given)
    if binary is None:
        print(f"ORDO: {given} is not an executable; the Ordo anchor is skipped")
    return binary


def write_pgn(records: Path, pgn: Path) -> None:
    """The records' results as PGN, by referee's own export (one minimal game per record)."""
    command = [sys.executable, "-m", "referee", "export", "--format", "pgn"]
    subprocess.run([*command, "-o", str(pgn), str(records)], check=True, stdout=subprocess.DEVNULL)


def check_ordo(binary: str, pgn: Path, games: int) -> str:
    """Ordo's version, after a run (untimed, it also reads the file into the page cache) that
    must report every game read and none discarded."""
    done = subprocess.run(
        [binary, *ORDO_OPTIONS[1:], "-p", str(pgn)], capture_output=True, text=True, check=True
    )
    read = re.search(r"Total games\s+(\d+)", done.stdout)
    dropped = re.search(r"Truncated/Discarded\s+(\d+)", done.stdout)
    if read is None or int(read[1]) != games or dropped is None or int(dropped[1]) != 0:
        raise SystemExit(f"{binary} did not read the {games:,} games of {pgn}")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
    return version.stdout.strip() or "ordo"


def child_cpu(command: list[str], environment: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of a child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ordo_text(
    version: str,
    games: int,
    records: int,
    pgn: int,
    ours: list[list[float]],
    ordo: list[list[float]],
) -> str:
    """What the Ordo rows time and mean, and referee's time over Ordo's run by run: `ours`
    the two referee rows (file, summary), `ordo` Ordo's two (ratings only, with errors)."""
    (file, summary), (plain, simulated) = ours, ordo
    return (
        f"Ordo ({version}, built from its public source with its Makefile; the environment "
        "variable ORDO names the binary) ran in the same runs, in turn with the rows above. "
        f"It reads the same {games:,} games' results, written once before the runs by "
        f"`referee export --format pgn` (not timed): a PGN file of {pgn / 1e6:,.1f} MB "
        f"({pgn / games:.0f} bytes a game: the tags and the result token, no moves), "
        f"{records / pgn:.0f} times smaller than the records and with no JSON to decode. "
        "What each side computes: `referee ratings` by default fits the ratings (average 0) "
        "with the first-move advantage, gives each a 95% robust (sandwich) interval with "
        "colour-swapped pairs as units, and prints the draw rate, the LOS of the next bot, "
        "the crosstable and the incremental Elo. `ordo -a 0 -W -D` fits the ratings "
        "(average 0) with White's advantage and the draw rate between equal players, and "
        "gives no errors: Ordo's errors come only from simulations, and "
        f"`-s {ORDO_SIMULATIONS}` replays every game {ORDO_SIMULATIONS} times from the "
        "fitted ratings and refits each replay (its manual's minimum reasonable number; 95% "
        "by default), the nearest Ordo run to referee's default. White is seat 0 in the "
        "PGN, which in THAX is not the first mover (the opening roll decides): Ordo's White "
        "advantage is a seat-0 advantage, the same work for another quantity. So the Ordo "
        "rows time a C program rating the results alone, the referee rows reading and "
        "checking the whole records as well (the msgspec rows: what decoding them alone "
        "costs in Python). Run by run, referee's CPU time over Ordo's, median (range): "
        f"`referee ratings --no-cache` {ratios(file, plain, 1)} against Ordo's ratings only, "
        f"{ratios(file, simulated, 1)} against Ordo with errors; `referee ratings` reading the "
        f"summary {ratios(summary, plain, 1)} and {ratios(summary, simulated, 1)}."
    )


ORDO_SKIPPED = (
    "Ordo did not run: the environment variable ORDO named no executable. Built outside the "
    f"repository ({ORDO_BUILD}) and named by ORDO, it rates the same games' results, written "
    "as PGN by `referee export --format pgn` before the runs, in the same alternating runs "
    "as the rows above (the script's docstring gives its options)."
)


def command_rows(
    games: int, runs: int, ordo: str | None
) -> tuple[list[tuple[str, list[float]]], str, str]:
    """The whole-command rows, the line on the file, and the text under the table."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "games.jsonl"
        length = write_records(path, games, 10, _play_source(folder))
        referee = [sys.executable, "-m", "referee", "ratings"]
        # The summary kept by a first run: read in place of the file by the runs after it.
        kept = {**os.environ, "REFEREE_CACHE_DIR": str(folder / "summaries")}
        subprocess.run([*referee, str(path)], check=True, stdout=subprocess.DEVNULL, env=kept)
        records = f"{games:,} records"
        referee_rows = {
            f"`referee ratings --no-cache FILE` (whole command, the file read), {records}": [
                *referee, "--no-cache", str(path)
            ],
            f"`referee ratings FILE` (whole command, the file's summary read), {records}": [
                *referee, str(path)
            ],
        }  # fmt: skip
        commands = {
            **referee_rows,
            f"`python -c`: msgspec decodes each line, {records}": [
                sys.executable, "-c", READ_ONLY["decoded"], str(path)
            ],
            f"`python -c`: msgspec decodes the table's fields of each line, {records}": [
                sys.executable, "-c", READ_ONLY["struct"], str(path)
            ],
        }  # fmt: skip
        ordo_rows: dict[str, list[str]] = {}
        version, pgn_size = "", 0
        if ordo is not None:
            pgn = folder / "games.pgn"
            write_pgn(path, pgn)
            pgn_size = pgn.stat().st_size
            version = check_ordo(ordo, pgn, games)
            plain = " ".join(ORDO_OPTIONS)
            results = f"{games:,} games' results (PGN)"
            errors = ["-s", str(ORDO_SIMULATIONS)]
            ordo_rows = {
                f"`ordo {plain} -p FILE.pgn` (whole process, ratings only), {results}": [
                    ordo, *ORDO_OPTIONS, "-p", str(pgn)
                ],
                f"`ordo {plain} -s {ORDO_SIMULATIONS} -p FILE.pgn` (whole process, errors "
                f"from {ORDO_SIMULATIONS} simulations), {results}": [
                    ordo, *ORDO_OPTIONS, *errors, "-p", str(pgn)
                ],
            }  # fmt: skip
            commands.update(ordo_rows)
        times: dict[str, list[float]] = {label: [] for label in commands}
        for _ in range(runs):  # alternating, so that all meet the same load
            for label, command in commands.items():
                times[label].append(child_cpu(command, kept))
        size = path.stat().st_size
    note = (
        f"{games:,} THAX records, 10 bots, {size / 1e9:.2f} GB "
        f"(a line {length:,.0f} bytes on average)"
    )
    anchor = ORDO_SKIPPED
    if ordo is not None:
        ours, theirs = (
            [times[label] for label in referee_rows],
            [times[label] for label in ordo_rows],
        )
        anchor = ordo_text(version, games, size, pgn_size, ours, theirs)
    return list(times.items()), note, f"{READING}\n\n{anchor}"


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
    note = under = ""
    if not args.skip_command:
        rows, note, under = command_rows(args.games, args.runs, ordo_binary())
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
        + f"\n\n{body}"
        + (f"\n\n{under}" if under else "")
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
