"""Tournament speed: games per second with built-in random bots per game at concurrency 1 and 2,
and the cost per move of an external bot (the example bot, JSON lines): wall time (the round
trip) and CPU time (referee's worker and the bot together).

Run: .venv/bin/python benchmarks/tournament.py [--write] [--external-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import machine, median_seconds, report, table

from referee.games import GAME_NAMES
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from referee.tournament.store import TournamentStore

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bots" / "random_bot.py"


def games_per_second(game: str, games: int, concurrency: int) -> float:
    config = build_config(
        game=game,
        bots=[BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")],
        games_per_pair=games,
    )

    def run() -> None:
        folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        run_tournament(folder, config, concurrency=concurrency)
        shutil.rmtree(folder)

    return games / median_seconds(run, runs=3)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def external_cost_ms(games: int = 40) -> tuple[float, float, int]:
    """Per move of an external random bot against a built-in one, minus the same games with
    two built-in bots: wall ms (the round trip) and CPU ms of the worker process and the bot
    (both are waited-for descendants of this process once the pool has shut down)."""

    def turns_and_time(second: BotEntry) -> tuple[int, float, float]:
        config = build_config(
            game="thax", bots=[BotEntry(name="a", spec="random"), second], games_per_pair=games
        )
        folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        cpu, started = _children_cpu(), time.perf_counter()
        run_tournament(folder, config, concurrency=1)
        elapsed, cpu = time.perf_counter() - started, _children_cpu() - cpu
        records = TournamentStore(folder).records()
        moves = sum(1 for r in records for t in r.turns if r.players[t.seat].name == second.name)
        shutil.rmtree(folder)
        return moves, elapsed, cpu

    external = BotEntry(name="ext", command=[sys.executable, str(EXAMPLE)])
    moves, wall, cpu = turns_and_time(external)
    _, built_wall, built_cpu = turns_and_time(BotEntry(name="ext", spec="random"))
    return (wall - built_wall) / moves * 1000, (cpu - built_cpu) / moves * 1000, moves


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def external_text(runs: int) -> str:
    results = [external_cost_ms() for _ in range(runs)]
    load = os.getloadavg()[0]

    def spread(values: list[float]) -> str:
        return f"{statistics.median(values):.3f} ms (range {min(values):.3f}-{max(values):.3f})"

    return (
        f"External bot protocol, per move (JSON lines, the example bot in "
        f"examples/bots/random_bot.py, {results[0][2]:,} moves a run, median of {runs} runs; "
        f"{cpu_model()}, load average {load:.1f} on {os.cpu_count()} cores): round trip "
        f"{spread([r[0] for r in results])} wall, {spread([r[1] for r in results])} CPU of "
        "referee's worker and the bot."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument("--runs", type=int, default=5, help="runs of the external-bot figure")
    parser.add_argument(
        "--external-only", action="store_true", help="print the external-bot figure only"
    )
    args = parser.parse_args()
    if args.external_only:
        print(external_text(args.runs))
        return
    rows = [
        [name, *(f"{games_per_second(name, args.games, c):,.0f}" for c in (1, 2))]
        for name in GAME_NAMES
    ]
    text = "\n\n".join(
        [
            f"Machine: {machine()}; median of 3 runs of {args.games} games of random bots, "
            "process pool, every game validated and stored.",
            table(["game", "games/s, concurrency 1", "games/s, concurrency 2"], rows),
            "Each worker replays the games it played to validate them (for random bots that "
            "costs about as much as playing) and the runner writes them to the file: with "
            "games of about a millisecond (THAX, Thai checkers) the runner's share of the two "
            "cores keeps concurrency 2 from doubling the rate.",
            external_text(args.runs),
        ]
    )
    report(
        "tournaments",
        "Tournaments",
        ".venv/bin/python benchmarks/tournament.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
