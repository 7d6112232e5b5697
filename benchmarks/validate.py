"""Validation speed: moves per CPU second per game from JSONL on one core, python-chess reading
PGN in the same runs, memory on a 50 MB file, --jobs 1 against --jobs 2 on many files.

Run: .venv/bin/python benchmarks/validate.py [--runs 5] [--write]
(not under `taskset`: the --jobs part wants both cores; the rest runs in one thread and counts
its own CPU time).

The records are distinct random games of each game's `random` bot, made once into a
temporary folder. Each run reads the file again and replays every game from its start with
the engines' notation caches emptied first, as a fresh `referee validate` process would; the
runs of the four games and of python-chess alternate.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from anchors import CHESS, chess_games, chess_replay, missing, optional
from common import conditions, cpu_seconds, empty_caches, load_average, report, spread, table

from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.records.io import iter_jsonl, record_to_json
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_file

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
REFEREE = [sys.executable, "-m", "referee"]


def random_games(name: str, count: int, seed: str = "bench") -> list[str]:
    game = get_game(name)
    ruleset = game.ruleset()
    return [
        record_to_json(
            play_game(GameSetup(game, ruleset, PLAYERS, f"{seed}{i}"), [RandomBot(), RandomBot()])
        )
        for i in range(count)
    ]


def validate(path: Path) -> int:
    """Validate every game of the file: the moves replayed."""
    empty_caches()
    reports = list(validate_file(path))
    assert all(r.valid for r in reports), next(r for r in reports if not r.valid)
    return sum(r.turns for r in reports)


def read_only(path: Path) -> int:
    """Read the file's records (parsed and checked against the record model), no replay."""
    with path.open("rb") as stream:
        return sum(len(loaded.record.turns) for loaded in iter_jsonl(stream) if loaded.record)


def speed(folder: Path, games: int, runs: int) -> str:
    paths = {}
    for name in GAME_NAMES:
        paths[name] = folder / f"{name}.jsonl"
        paths[name].write_text("\n".join(random_games(name, games)) + "\n")
    chess = optional("chess")
    pgn = chess_games(chess, games // 3, 1) if chess is not None else []
    checked: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    read: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    moves = {name: read_only(paths[name]) for name in GAME_NAMES}
    chess_rates: list[float] = []
    chess_moves = chess_replay(pgn)
    for _ in range(runs):
        for name in GAME_NAMES:
            checked[name].append(moves[name] / cpu_seconds(validate, paths[name]))
            read[name].append(moves[name] / cpu_seconds(read_only, paths[name]))
        if pgn:
            chess_rates.append(chess_moves / cpu_seconds(chess_replay, pgn))
    rows = [
        [name, f"{games:,}", f"{moves[name]:,}", spread(checked[name]), spread(read[name])]
        for name in GAME_NAMES
    ]
    headers = ["game", "games", "moves", "validation, moves/s", "of which reading alone, moves/s"]
    text = table(headers, rows)
    if not pgn:
        return text + "\n\n" + missing(CHESS)
    anchor = table(
        ["anchor", "games", "moves", "moves/s"],
        [["python-chess reading PGN", f"{len(pgn):,}", f"{chess_moves:,}", spread(chess_rates)]],
    )
    return (
        text
        + "\n\nThe anchor, in the same runs: random chess games of up to 200 plies as PGN text, "
        "read by `chess.pgn.read_game` (each SAN move parsed against its position's legal "
        "moves and played):\n\n" + anchor
    )


def peak_memory_mb(args: list[str]) -> tuple[float, float]:
    """Run a command; its peak resident memory in MB and its CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=False, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return after.ru_maxrss / 1024, cpu


def memory(folder: Path) -> str:
    big = folder / "big.jsonl"
    lines = random_games(GAME_NAMES[0], 500, "big")
    with big.open("w") as out:
        while out.tell() < 50 * 1024 * 1024:
            out.write("\n".join(lines) + "\n")
    size = big.stat().st_size / 1024 / 1024
    peak, cpu = peak_memory_mb([*REFEREE, "validate", "-q", str(big)])
    return (
        f"A {size:.0f} MB JSONL of valid {GAME_NAMES[0]} games (500 distinct games repeated): "
        f"peak memory {peak:.0f} MB, {cpu:.1f} s of CPU (`referee validate -q`, one run)."
    )


def jobs(folder: Path, runs: int) -> str:
    many = folder / "many"
    many.mkdir()
    lines = random_games(GAME_NAMES[0], 20, "many")
    for i in range(200):
        (many / f"{i:03d}.jsonl").write_text("\n".join(lines) + "\n")
    timings: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(runs):
        for count in (1, 2):
            started = time.perf_counter()
            subprocess.run(
                [*REFEREE, "validate", "-q", "--jobs", str(count), str(many)],
                check=False,
                stdout=subprocess.DEVNULL,
            )
            timings[count].append(time.perf_counter() - started)
    gain = statistics.median(a / b for a, b in zip(timings[1], timings[2], strict=True))
    return (
        f"A folder of 200 files of 20 games, wall time (the point is the second core), "
        f"median and range of {runs} alternating runs: `--jobs 1` {spread(timings[1], 2)} s, "
        f"`--jobs 2` {spread(timings[2], 2)} s; `--jobs 1` over `--jobs 2`, run by run: "
        f"{gain:.2f} (median). On a machine busy with other work the second core is shared."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per game for speed")
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--no-jobs", action="store_true", help="skip --jobs 1 against 2")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        load = load_average()
        parts = [speed(folder, args.games, args.runs)]
        parts.insert(0, conditions(args.runs, load) + " One core.")
        parts.append(memory(folder))
        if not args.no_jobs:
            parts.append(jobs(folder, args.runs))
    finally:
        shutil.rmtree(folder)
    report(
        "validation",
        "Validation",
        ".venv/bin/python benchmarks/validate.py --write",
        "\n\n".join(parts),
        args.write,
    )


if __name__ == "__main__":
    main()
