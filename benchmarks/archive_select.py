"""`referee select` speed: header filters over a 1,000,000-game JSONL file, and --position.

Run: taskset -c 0 .venv/bin/python benchmarks/archive_select.py [--games N] [--runs 5] [--write]

The games are real tournament records: a round robin of the built-in `random` and `greedy`
bots of each game (50 games per pairing), repeated with the player names varied (1,000
names) until the file holds the number of games asked for (400,000 by default, so that the
script takes a few minutes; `--games 1000000` for the archive of issue 21). Each run is a
fresh `referee select` process; its CPU time (user + system) and peak memory come from the
operating system; the cases take turns run by run. Target (issue 21): >= 50,000 games/s on
one core with header filters, memory flat in the file size; with --position, the
validator's replay speed (both in this process, the engines' notation caches emptied before
each run).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from common import (
    conditions,
    cpu_seconds,
    empty_caches,
    load_average,
    measured_run,
    report,
    spread,
    table,
)

from referee.archive.filters import Criteria
from referee.archive.positions import position_query
from referee.archive.select import Counts, Plan, selected
from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.records.io import parse_record_json, record_to_json
from referee.records.model import Player
from referee.records.replay import final_state, game_of
from referee.tournament.config import BotEntry, build_config
from referee.tournament.play import GameSetup, play_game
from referee.tournament.runner import run_tournament
from referee.validator.check import validate_file

REFEREE = [sys.executable, "-m", "referee"]
JSONL = ["--format", "jsonl"]
NAMES = 1000


def tournament_lines(folder: Path) -> list[bytes]:
    """The records of a small round robin of each game's built-in bots."""
    lines: list[bytes] = []
    for name in GAME_NAMES:
        config = build_config(
            game=name,
            bots=[BotEntry(name="random", spec="random"), BotEntry(name="greedy", spec="greedy")],
            games_per_pair=50,
            seed="select-bench",
        )
        run_tournament(folder / name, config)
        lines += (folder / name / "games.jsonl").read_bytes().splitlines()
    return lines


def random_games(name: str, moves: int) -> list[bytes]:
    """Distinct games of the `random` bot (every replay meets fresh positions), as many as
    make `moves` moves or more."""
    game = get_game(name)
    players = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
    lines: list[bytes] = []
    made = 0
    while made < moves:
        setup = GameSetup(game, game.ruleset(), players, f"r{len(lines)}", turn_cap=400)
        record = play_game(setup, [RandomBot(), RandomBot()])
        lines.append(record_to_json(record).encode())
        made += len(record.turns)
    return lines


def final_position(line: bytes) -> str:
    """The position at the end of a recorded game, in its game's notation."""
    record = parse_record_json(line)
    return game_of(record).format_position(final_state(record))


def write_archive(path: Path, lines: list[bytes], games: int) -> None:
    """`games` records: the tournament's, over and over, the names varied."""
    with path.open("wb") as out:
        for index in range(games):
            line = lines[index % len(lines)]
            suffix = f"-{index % NAMES}".encode()
            line = line.replace(b'"name": "random"', b'"name": "random' + suffix + b'"')
            out.write(line.replace(b'"name": "greedy"', b'"name": "greedy' + suffix + b'"') + b"\n")


def measure(args: list[str]) -> tuple[float, float]:
    """The CPU seconds and the peak memory (MB) of one run of a command."""
    code, seconds, peak = measured_run(args)
    if code != 0:
        raise SystemExit(f"{' '.join(args)} exited with {code}")
    return seconds, peak


def header_part(args: argparse.Namespace, folder: Path) -> str:
    """Header filters over the big archive, each run a fresh `referee select` process."""
    lines = tournament_lines(folder / "tournaments")
    big, small, one = folder / "big.jsonl", folder / "small.jsonl", folder / "one.jsonl"
    one.write_bytes(lines[0] + b"\n")
    write_archive(big, lines, args.games)
    write_archive(small, lines, args.games // 2)
    size = big.stat().st_size / 1e6
    header = ["--game", "thax", "--player", "greedy-7", "--reason", "rules"]
    cases = [
        ("a one-game file (the command's start)", [], one, 1),
        ("header filters (game, player, reason)", header, big, args.games),
        ("header filters, half the file", header, small, args.games // 2),
        ("with --turns 10..60 (turns decoded)", [*header, "--turns", "10..60"], big, args.games),
        ("--winner seat0 (every line decoded)", ["--winner", "seat0"], big, args.games),
        (
            "--winner seat0 --turns 10..60 (every line and turn decoded)",
            ["--winner", "seat0", "--turns", "10..60"],
            big,
            args.games,
        ),
        ("--dedupe, no filter", ["--dedupe"], big, args.games),
    ]
    load = load_average()
    times: list[list[float]] = [[] for _ in cases]
    memory = [0.0 for _ in cases]
    for _ in range(args.runs):
        for index, (_, options, path, _) in enumerate(cases):
            seconds, peak = measure(
                [*REFEREE, "select", str(path), *options, "-o", os.devnull, *JSONL]
            )
            times[index].append(seconds)
            memory[index] = max(memory[index], peak)
    start = statistics.median(times[0])
    rows = []
    for (label, _, _, games), runs, peak in zip(cases, times, memory, strict=True):
        median = statistics.median(runs)
        rows.append(
            [
                label,
                f"{games:,}",
                spread(runs, 2),
                f"{games / median:,.0f}" if games > 1 else "",
                f"{games / (median - start):,.0f}" if games > 1 else "",
                f"{peak:.0f}",
            ]
        )
    speed = table(
        ["select", "games", "CPU s, median (range)", "games/s", "after start", "peak MB"], rows
    )
    clock = "CPU time (user + system) of fresh `referee select` processes, their start included"
    return "\n\n".join(
        [
            conditions(args.runs, load, clock) + " One core.",
            f"The archive: {args.games:,} games ({size:,.0f} MB) from {len(lines)} tournament "
            f"records of the four games, names varied.",
            speed,
            "`after start`: the games over the CPU time less the median of the run on a "
            "one-game file (starting the command).",
        ]
    )


def position_part(args: argparse.Namespace, folder: Path) -> str:
    """`--position` against the validator, in this process (no start-up in the figures)."""
    prepared = []
    for name in GAME_NAMES:
        games = random_games(name, args.moves)
        path = folder / f"{name}.jsonl"
        path.write_bytes(b"\n".join(games) + b"\n")
        moves = sum(report.turns for report in validate_file(path))
        # The last game's end: the other games are replayed to their ends, not found.
        criteria = Criteria(position=position_query(final_position(games[-1]), name))
        prepared.append((name, len(games), moves, path, criteria))

    def find(job: tuple[Criteria, Path]) -> int:
        empty_caches()
        plan = Plan(job[0])
        return sum(1 for _ in selected([str(job[1])], plan, Counts(), lambda line: None))

    def check(path: Path) -> int:
        empty_caches()
        return len(list(validate_file(path)))

    load = load_average()
    found: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    checked: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    for _ in range(args.runs):
        for name, _, _, path, criteria in prepared:
            found[name].append(cpu_seconds(find, (criteria, path)))
            checked[name].append(cpu_seconds(check, path))
    rows = [
        [
            name,
            f"{games:,}",
            f"{moves:,}",
            spread(found[name], 2),
            f"{moves / statistics.median(found[name]):,.0f}",
            spread(checked[name], 2),
            f"{moves / statistics.median(checked[name]):,.0f}",
        ]
        for name, games, moves, _, _ in prepared
    ]
    replay = table(
        [
            "game",
            "games",
            "moves",
            "select --position, CPU s",
            "moves/s",
            "validate, CPU s",
            "moves/s",
        ],
        rows,
    )
    return "\n\n".join(
        [
            conditions(args.runs, load) + " One core; the two take turns.",
            f"`select --position` with the end of the last game (so every game is replayed to "
            f"its end) over distinct games of the `random` bot, {args.moves:,} moves or more a "
            "game (so that a run of either takes over a second), "
            "against the validator on the same file:",
            replay,
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400_000, help="games in the archive")
    parser.add_argument("--runs", type=int, default=5, help="runs of each case")
    parser.add_argument(
        "--moves", type=int, default=200_000, help="moves per game for --position (at least)"
    )
    parser.add_argument("--part", choices=["all", "header", "position"], default="all")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-select-"))
    script = "taskset -c 0 .venv/bin/python benchmarks/archive_select.py --write"
    try:
        if args.part in ("all", "header"):
            text = header_part(args, folder)
            report("select", "Selecting games (referee select)", script, text, args.write)
        if args.part in ("all", "position"):
            text = position_part(args, folder)
            title = "Selecting games by position (referee select --position)"
            report("select-position", title, script, text, args.write)
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
