"""`referee select` speed: header filters over a 1,000,000-game JSONL file, and --position.

Run: taskset -c 0 .venv/bin/python benchmarks/archive_select.py [--games N] [--runs 3] [--write]

The games are real tournament records: a round robin of the built-in `random` and `greedy`
bots of each game (50 games per pairing), repeated with the player names varied (1,000
names) until the file holds the number of games asked for. Each run is a fresh
`referee select` process; its CPU time (user + system) and peak memory come from the
operating system. Target (issue 21): >= 50,000 games/s on one core with header filters,
memory flat in the file size; with --position, the validator's replay speed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common import cpu_model, report, table

from referee.archive.filters import Criteria
from referee.archive.positions import position_query
from referee.archive.select import Counts, Plan, selected
from referee.games import GAME_NAMES, get_game
from referee.games.bot import RandomBot
from referee.records.io import parse_record_json, record_to_json
from referee.records.model import Player
from referee.records.replay import final_state, game_of
from referee.tournament.config import BotEntry, build_config
from referee.tournament.play import play_game
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


def random_games(name: str, count: int) -> list[bytes]:
    """`count` distinct games of the `random` bot (every replay meets fresh positions)."""
    game = get_game(name)
    players = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
    return [
        record_to_json(
            play_game(game, game.ruleset(), [RandomBot(), RandomBot()], players, f"r{i}", 400)
        ).encode()
        for i in range(count)
    ]


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


def measure(args: list[str], runs: int) -> tuple[float, float, float, float]:
    """Median, least and greatest CPU seconds over `runs` runs, and the peak memory (MB).

    ru_maxrss of the children is the greatest of any child so far, so each measurement runs in
    a fresh Python that reports only its own child.
    """
    probe = (
        "import resource,subprocess,sys,json;"
        "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL);"
        "u=resource.getrusage(resource.RUSAGE_CHILDREN);"
        "print(json.dumps([p.returncode,u.ru_utime+u.ru_stime,u.ru_maxrss/1024]))"
    )
    times, memory = [], 0.0
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", probe, *args], check=True, capture_output=True, text=True
        )
        code, seconds, peak = json.loads(out.stdout)
        if code != 0:
            raise SystemExit(f"{' '.join(args)} exited with {code}")
        times.append(seconds)
        memory = max(memory, peak)
    return statistics.median(times), min(times), max(times), memory


def machine_line(runs: int, how: str) -> str:
    return (
        f"CPU: {cpu_model()} ({os.cpu_count()} cores), Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.1f} when the runs started; {runs} runs each, {how}."
    )


def header_part(args: argparse.Namespace, folder: Path) -> str:
    """Header filters over the big archive, each run a fresh `referee select` process."""
    lines = tournament_lines(folder / "tournaments")
    big, small, one = folder / "big.jsonl", folder / "small.jsonl", folder / "one.jsonl"
    one.write_bytes(lines[0] + b"\n")
    write_archive(big, lines, args.games)
    write_archive(small, lines, args.games // 10)
    size = big.stat().st_size / 1e6
    header = ["--game", "thax", "--player", "greedy-7", "--reason", "rules"]
    cases = [
        ("header filters (game, player, reason)", header, big, args.games),
        ("header filters, 1/10 of the file", header, small, args.games // 10),
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
    start, _, _, _ = measure([*REFEREE, "select", str(one), "-o", os.devnull, *JSONL], args.runs)
    rows = []
    for label, options, path, games in cases:
        median, low, high, memory = measure(
            [*REFEREE, "select", str(path), *options, "-o", os.devnull, *JSONL], args.runs
        )
        rows.append(
            [
                label,
                f"{games:,}",
                f"{median:.1f} ({low:.1f}-{high:.1f})",
                f"{games / median:,.0f}",
                f"{games / (median - start):,.0f}",
                f"{memory:.0f}",
            ]
        )
    speed = table(
        ["select", "games", "CPU s, median (range)", "games/s", "after start", "peak MB"], rows
    )
    return "\n\n".join(
        [
            machine_line(args.runs, "each a fresh process (its start included)"),
            f"The archive: {args.games:,} games ({size:,.0f} MB) from {len(lines)} tournament "
            f"records of the four games, names varied.",
            speed,
            f"`after start`: the games over the CPU time less that of a run on a one-game file "
            f"({start:.2f} s, starting the command).",
        ]
    )


def cpu_times(work: Callable[[], object], runs: int) -> tuple[float, float, float]:
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times), min(times), max(times)


def position_part(args: argparse.Namespace, folder: Path) -> str:
    """`--position` against the validator, in this process (no start-up in the figures)."""
    rows = []
    for name in GAME_NAMES:
        games = random_games(name, args.replays)
        path = folder / f"{name}.jsonl"
        path.write_bytes(b"\n".join(games) + b"\n")
        moves = sum(report.turns for report in validate_file(path))
        # The last game's end: the other games are replayed to their ends, not found.
        criteria = Criteria(position=position_query(final_position(games[-1]), name))

        def find(criteria: Criteria = criteria, path: Path = path) -> int:
            plan = Plan(criteria)
            return sum(1 for _ in selected([str(path)], plan, Counts(), lambda line: None))

        checked = cpu_times(lambda path=path: list(validate_file(path)), args.runs)
        found = cpu_times(find, args.runs)
        rows.append(
            [
                name,
                f"{len(games):,}",
                f"{moves:,}",
                f"{found[0]:.2f} ({found[1]:.2f}-{found[2]:.2f})",
                f"{moves / found[0]:,.0f}",
                f"{checked[0]:.2f} ({checked[1]:.2f}-{checked[2]:.2f})",
                f"{moves / checked[0]:,.0f}",
            ]
        )
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
            machine_line(
                args.runs,
                "in one process (the engines' notation caches warm after the first run, for both)",
            ),
            f"`select --position` with the end of the last game (so every game is replayed to "
            f"its end) over {args.replays:,} distinct games of the `random` bot per game, "
            "against the validator on the same file:",
            replay,
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--replays", type=int, default=1000, help="games per game for --position")
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
