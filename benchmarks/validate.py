"""Validation speed: moves per second per game from JSONL on one core; memory on a 50 MB file;
--jobs 1 against --jobs 2 on a folder of many files.

Run: .venv/bin/python benchmarks/validate.py [--write]
The records are random games of each game's `random` bot, made once into a temporary folder.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import machine, median_seconds, report, table

from referee.games import GAME_NAMES, get_game
from referee.games.bot import RandomBot
from referee.records.io import record_to_json
from referee.records.model import Player
from referee.tournament.play import play_game
from referee.validator.check import validate_file

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
REFEREE = [sys.executable, "-m", "referee"]


def random_games(name: str, count: int, seed: str = "bench") -> list[str]:
    game = get_game(name)
    ruleset = game.ruleset()
    return [
        record_to_json(play_game(game, ruleset, [RandomBot(), RandomBot()], PLAYERS, f"{seed}{i}"))
        for i in range(count)
    ]


def moves_per_second(path: Path) -> tuple[int, float]:
    moves = sum(report.turns for report in validate_file(path))
    seconds = median_seconds(lambda: list(validate_file(path)))
    return moves, moves / seconds


def peak_memory_mb(args: list[str]) -> tuple[float, float]:
    """Run a command; its peak resident memory in MB and its wall time."""
    started = time.perf_counter()
    subprocess.run(args, check=False, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per game for speed")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    rows = []
    for name in GAME_NAMES:
        path = folder / f"{name}.jsonl"
        path.write_text("\n".join(random_games(name, args.games)) + "\n")
        moves, speed = moves_per_second(path)
        rows.append([name, f"{moves:,}", f"{speed:,.0f}"])
    speed_table = table(["game", "moves", "moves/s (one core)"], rows)

    big = folder / "big.jsonl"
    lines = random_games(GAME_NAMES[0], 500, "big")
    with big.open("w") as out:
        while out.tell() < 50 * 1024 * 1024:
            out.write("\n".join(lines) + "\n")
    size = big.stat().st_size / 1024 / 1024
    memory, big_time = peak_memory_mb([*REFEREE, "validate", "-q", str(big)])

    many = folder / "many"
    many.mkdir()
    for i in range(200):
        (many / f"{i:03d}.jsonl").write_text("\n".join(lines[:20]) + "\n")
    timings = {}
    for jobs in (1, 2):
        started = time.perf_counter()
        subprocess.run(
            [*REFEREE, "validate", "-q", "--jobs", str(jobs), str(many)],
            check=False,
            stdout=subprocess.DEVNULL,
        )
        timings[jobs] = time.perf_counter() - started
    text = "\n\n".join(
        [
            f"Machine: {machine()}; median of 5 runs.",
            speed_table,
            f"A {size:.0f} MB JSONL of valid {GAME_NAMES[0]} games: peak memory "
            f"{memory:.0f} MB, {big_time:.1f} s (`referee validate -q`).",
            f"A folder of 200 files of 20 games: `--jobs 1` {timings[1]:.2f} s, "
            f"`--jobs 2` {timings[2]:.2f} s.",
        ]
    )
    report(
        "validation",
        "Validation",
        ".venv/bin/python benchmarks/validate.py --write",
        text,
        args.write,
    )
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
