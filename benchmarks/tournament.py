"""Tournament throughput and the runner's memory.

1. For each game, random bots against each other: the engine's own random playouts (the loop of
   benchmarks/engines.py, one process), then tournaments of the same number of games at
   concurrency 1 and 2 (process pool, `--verify` at its default, every game stored), in
   alternating runs. Reported: games per CPU second (the runner's and its workers' CPU) and per
   wall second, the tournament's share of the engine's speed, and concurrency 2 against 1.
2. What `--verify all` costs a worker, against `--verify none`.
3. The runner's peak memory (its own maximum resident set, in a fresh process) for THAX
   tournaments of growing size: flat in the number of games.

Run: .venv/bin/python benchmarks/tournament.py [--write] [--games N] [--runs R]
     [--memory N,N] [--verify-only]
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import machine, report, table
from engines import playout

from referee.games import GAME_NAMES, get_game
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import DEFAULT_VERIFY, run_tournament


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the pool's workers
    once the pool has shut down)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def engine_rate(name: str, games: int, seed: int) -> float:
    """Random playouts per CPU second."""
    game = get_game(name)
    start = game.initial_state(game.ruleset())
    rng = random.Random(seed)
    started = time.process_time()
    for _ in range(games):
        playout(start, rng, game.turn_cap * 2)
    return games / (time.process_time() - started)


def tournament_cost(name: str, games: int, concurrency: int, seed: int) -> tuple[float, float]:
    """CPU and wall seconds of a random-bot tournament, start to end."""
    config = build_config(
        game=name,
        bots=[BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")],
        games_per_pair=games,
        seed=str(seed),
    )
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        cpu, wall = _cpu(), time.perf_counter()
        run_tournament(folder, config, concurrency=concurrency)
        cpu, wall = _cpu() - cpu, time.perf_counter() - wall
    finally:
        shutil.rmtree(folder)
    return cpu, wall


def tournament_rates(name: str, games: int, concurrency: int, seed: int) -> tuple[float, float]:
    """Games per CPU second and per wall second of a random-bot tournament, beyond what a
    tournament of one pair costs (starting the pool: a process and referee's imports per
    worker), so that the figure is the pipeline's, not the start-up's."""
    cpu, wall = tournament_cost(name, games, concurrency, seed)
    base_cpu, base_wall = tournament_cost(name, 2, concurrency, seed)
    return (games - 2) / (cpu - base_cpu), (games - 2) / (wall - base_wall)


def spread(values: list[float], digits: str = ",.0f") -> str:
    return f"{statistics.median(values):{digits}} ({min(values):{digits}}-{max(values):{digits}})"


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def throughput(games: int, runs: int) -> str:
    rows = []
    loads = [load()]
    for name in GAME_NAMES:
        engine, cpu1, wall1, wall2, share = [], [], [], [], []
        # Unmeasured: what the first tournament of a process does once (importing the pool's
        # modules) would otherwise count as the games' cost in the first measured run.
        for concurrency in (1, 2):
            tournament_cost(name, 2, concurrency, runs)
        for run in range(runs):
            engine.append(engine_rate(name, games, run))
            per_cpu, per_wall = tournament_rates(name, games, 1, run)
            cpu1.append(per_cpu)
            wall1.append(per_wall)
            share.append(per_cpu / engine[-1])
            wall2.append(tournament_rates(name, games, 2, run)[1])
        loads.append(load())
        speedup = [two / one for one, two in zip(wall1, wall2, strict=True)]
        rows.append(
            [
                name,
                spread(engine),
                spread(cpu1),
                spread([100 * s for s in share], ".0f") + "%",
                spread(wall1),
                spread(wall2),
                spread(speedup, ".2f") + "x",
            ]
        )
        print(rows[-1], file=sys.stderr)
    return "\n\n".join(
        [
            f"Machine: {machine()}; load average {', '.join(loads)} (1 min, before and after "
            f"each game). {games} games of random bots a run, median (range) of {runs} runs, "
            "engine and tournaments alternating; the tournaments with a process pool, "
            f"`--verify {DEFAULT_VERIFY}`, every game written to games.jsonl and synced.",
            table(
                [
                    "game",
                    "engine playouts/CPU s",
                    "tournament games/CPU s, conc. 1",
                    "share of the engine",
                    "games/wall s, conc. 1",
                    "games/wall s, conc. 2",
                    "conc. 2 / conc. 1 (wall)",
                ],
                rows,
            ),
            "Each tournament figure is that of the games beyond a one-pair tournament run just "
            "after it (the pool's start-up: a process forked per worker), once an unmeasured "
            "one-pair tournament of each concurrency has run (what the first tournament of a "
            "process does once). "
            "The tournament's CPU is the runner's and its workers' together. A tournament game "
            "costs more than a playout: each bot's generator is seeded for the game (the engine "
            "seeds one per run), the dice per seat and pair, each move is timed and written in "
            "the game's notation, the record is written and synced, and one game in 16 is "
            "replayed through the validator. "
            "Wall-time figures depend on the machine's load: on a busy machine concurrency 2 "
            "cannot reach twice concurrency 1.",
        ]
    )


def verify_share(games: int, runs: int) -> str:
    """What replaying every game costs: a worker's batch (in this process) with `--verify
    all` against `none`, alternating."""
    from referee.tournament.schedule import schedule
    from referee.tournament.worker import BatchOptions, play_batch

    rows = []
    for name in GAME_NAMES:
        config = build_config(
            game=name,
            bots=[BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")],
            games_per_pair=games,
        )
        jobs = schedule(config)
        shares = []
        for _ in range(runs):
            cost = {}
            for verify in ("none", "all"):
                started = time.process_time()
                play_batch(config, jobs, BatchOptions("bench", verify=verify))  # type: ignore[arg-type]
                cost[verify] = time.process_time() - started
            shares.append(100 * (cost["all"] - cost["none"]) / cost["all"])
        rows.append([name, spread(shares, ".0f") + "%"])
        print(rows[-1], file=sys.stderr)
    return "\n\n".join(
        [
            f"Replaying every game (`--verify all`), as a share of a worker's CPU with it "
            f"(random bots, {games} games a batch, median (range) of {runs} runs, load average "
            f"{load()} at the end); `--verify sample` costs a sixteenth of it:",
            table(["game", "share of the worker's CPU"], rows),
        ]
    )


RUNNER = """
import sys, tempfile, shutil
from pathlib import Path
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
games = int(sys.argv[1])
config = build_config(game="thax", bots=[BotEntry(name="a", spec="random"),
    BotEntry(name="b", spec="random")], games_per_pair=games)
folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
run_tournament(folder, config, concurrency=2, verify="none")
shutil.rmtree(folder)
# The peak of this program's own memory (VmHWM, in kB): getrusage's ru_maxrss keeps, across
# the exec, the peak of the process it was forked from (this script, grown by the runs
# before it).
status = Path("/proc/self/status").read_text()
print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
"""


def memory(sizes: list[int]) -> str:
    rows = []
    for games in sizes:
        before = load()
        output = subprocess.run(
            [sys.executable, "-c", RUNNER, str(games)], capture_output=True, text=True, check=True
        ).stdout
        rows.append([f"{games:,}", f"{int(output) / 1024:,.0f}", f"{before}, {load()}"])
        print(rows[-1], file=sys.stderr)
    return "\n\n".join(
        [
            "The runner's peak memory (its maximum resident set, a fresh process each; THAX, "
            "two random bots, concurrency 2, `--verify none`):",
            table(["games", "runner peak MB", "load before, after"], rows),
            "It holds the batches in flight, a byte per scheduled game and the keys of the "
            "stored games (a bit per game number): what grows with the number of games is a "
            "few bytes a game.",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--games", type=int, default=3000, help="games per measurement (a run over a second)"
    )
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument(
        "--memory", default="10000,100000", help="tournament sizes for the memory figure"
    )
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument(
        "--verify-only", action="store_true", help="print the cost of --verify all only"
    )
    args = parser.parse_args()
    if args.verify_only:
        print(verify_share(args.games, args.runs))
        return
    sizes = [int(size) for size in args.memory.split(",") if size]
    text = "\n\n".join(
        [throughput(args.games, args.runs), verify_share(args.games, args.runs), memory(sizes)]
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
