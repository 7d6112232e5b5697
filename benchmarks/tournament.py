"""Tournament throughput and the runner's memory.

1. For each game, random bots against each other: the engine's own random playouts (the loop of
   benchmarks/engines.py, one process) and tournaments of the same number of games at
   concurrency 1 and 2 (process pool, `--verify` at its default, every game stored), each run
   in the order engine, 1, 2, 1, engine, each half the games but concurrency 2's. Reported:
   games per CPU second (the runner's and its workers' CPU) and per wall second, the
   tournament's share of the engine's speed, and concurrency 2 against 1.
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
from typing import Any

from common import machine, report, table
from engines import playout

from referee.games import GAME_NAMES, get_game
from referee.games.base import Game, Ruleset
from referee.tournament.config import BotEntry, build_config
from referee.tournament.play import DiceSource, bot_seed
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


def _own_cpu() -> float:
    """CPU seconds of this process alone: the runner's."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def tournament_cost(
    name: str, games: int, concurrency: int, seed: int
) -> tuple[float, float, float]:
    """CPU seconds (the runner's and its workers'), the runner's CPU seconds and wall seconds
    of a random-bot tournament, start to end."""
    config = build_config(
        game=name,
        bots=[BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")],
        games_per_pair=games,
        seed=str(seed),
    )
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        cpu, runner, wall = _cpu(), _own_cpu(), time.perf_counter()
        run_tournament(folder, config, concurrency=concurrency)
        cpu, runner, wall = _cpu() - cpu, _own_cpu() - runner, time.perf_counter() - wall
    finally:
        shutil.rmtree(folder)
    return cpu, runner, wall


def games_cost(name: str, games: int, concurrency: int, seed: int) -> tuple[float, float, float]:
    """`tournament_cost` of the games of a random-bot tournament beyond those of a tournament
    of one pair run just after it (starting the pool: a process and referee's imports per
    worker), so that the figure is the pipeline's, not the start-up's; counted for
    `games - 2` games."""
    whole = tournament_cost(name, games, concurrency, seed)
    base = tournament_cost(name, 2, concurrency, seed)
    return whole[0] - base[0], whole[1] - base[1], whole[2] - base[2]


def spread(values: list[float], digits: str = ",.0f") -> str:
    return f"{statistics.median(values):{digits}} ({min(values):{digits}}-{max(values):{digits}})"


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def throughput(games: int, runs: int) -> tuple[str, dict[str, float]]:
    """The throughput section, and for each game the runner's median CPU seconds a game at
    concurrency 1."""
    rows = []
    loads = [load()]
    runner_cost: dict[str, float] = {}
    for name in GAME_NAMES:
        engine, cpu1, wall1, wall2, share, runner = [], [], [], [], [], []
        # Unmeasured: what the first tournament of a process does once (importing the pool's
        # modules) would otherwise count as the games' cost in the first measured run.
        for concurrency in (1, 2):
            tournament_cost(name, 2, concurrency, runs)
        for run in range(runs):
            # The machine's speed drifts by tens of per cent within seconds: each reference is
            # measured in two halves around what it is compared with, so that a drift of the
            # run moves both alike. The engine's games bracket the tournaments', concurrency 1's
            # bracket concurrency 2's.
            half = games // 2
            engine_cpu = half / engine_rate(name, half, run)
            first_cpu, first_runner, first_wall = games_cost(name, half, 1, run)
            _, _, two_wall = games_cost(name, games, 2, run)
            second_cpu, second_runner, second_wall = games_cost(name, games - half, 1, run + runs)
            engine_cpu += (games - half) / engine_rate(name, games - half, run + runs)
            engine.append(games / engine_cpu)
            counted = games - 4  # each tournament's games beyond its one-pair tournament's
            cpu1.append(counted / (first_cpu + second_cpu))
            runner.append((first_runner + second_runner) / counted)
            wall1.append(counted / (first_wall + second_wall))
            share.append(cpu1[-1] / engine[-1])
            wall2.append((games - 2) / two_wall)
        loads.append(load())
        runner_cost[name] = statistics.median(runner)
        speedup = [two / one for one, two in zip(wall1, wall2, strict=True)]
        rows.append(
            [
                name,
                spread(engine),
                spread(cpu1),
                spread([1e6 * r for r in runner], ".0f"),
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
            f"each game). {games} games of random bots a run, median (range) of {runs} runs; "
            "a run plays the engine's games and concurrency 1's in two halves each, around "
            "concurrency 2's (engine, 1, 2, 1, engine), so that a drift of the machine's speed "
            "in the run moves a figure and its reference alike; the tournaments with a process "
            "pool, "
            f"`--verify {DEFAULT_VERIFY}`, every game written to games.jsonl and synced.",
            table(
                [
                    "game",
                    "engine playouts/CPU s",
                    "tournament games/CPU s, conc. 1",
                    "runner CPU µs a game, conc. 1",
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
            "The runner's CPU is this process's: storing the lines, syncing the file, the "
            "pool's handing over. "
            "Wall-time figures depend on the machine's load: on a busy machine concurrency 2 "
            "cannot reach twice concurrency 1.",
        ]
    ), runner_cost


BLOCK = 100
"""Games a step of `breakdown` plays before the next step has its turn."""


def seeded_playout(game: Game[Any, Any], ruleset: Ruleset, seed: str, names: list[str]) -> None:
    """A random game as a tournament plays it, with nothing recorded: the dice from the
    game's seeded streams (`DiceSource`), the moves of the bot of each seat (`names`) from its
    own generator seeded for the game (`bot_seed`, as `Bot.start_game` seeds it), chosen as
    `RandomBot` chooses."""
    state = game.initial_state(ruleset)
    dice = DiceSource(seed) if game.has_dice else None
    choose = [random.Random(bot_seed(seed, name)).choice for name in names]
    while not state.is_terminal():
        if state.is_chance():
            assert dice is not None
            state = state.apply_chance(dice.roll(state.to_move))
        else:
            state = state.play(choose[state.to_move](state.legal_moves()))


def breakdown(games: int, runs: int, runner: dict[str, float]) -> str:
    """Where a tournament game's CPU goes beyond the engine's playout, step by step, in this
    process: the steps take turns a block of BLOCK games at a time (the machine's speed
    drifts more slowly than that), each block of new games. All steps but the engine's play
    the block's games of a tournament schedule, the very games of its batch.

    The ceiling: the share a tournament would reach if its game loop and batch cost nothing
    beyond what every tournament game must cost, the seeded streams' game, the record's line
    of JSON (`json_line` on the records of the recorded step) and the runner's storing of it
    (`runner`, its CPU seconds a game at concurrency 1 from `throughput`)."""
    from referee.records.model import Player
    from referee.tournament.jsonline import json_line
    from referee.tournament.play import GameSetup, play_game_data
    from referee.tournament.schedule import schedule
    from referee.tournament.worker import BatchOptions, built_in_bot, play_batch

    steps = ["engine", "seeded", "recorded", "batch", "line"]
    rows = []
    for name in GAME_NAMES:
        game = get_game(name)
        ruleset = game.ruleset()
        players = [Player(name="a"), Player(name="b")]
        bots = [built_in_bot(name, "random", seat) for seat in (0, 1)]
        shares: dict[str, list[float]] = {step: [] for step in (*steps[1:4], "ceiling")}
        for run in range(runs):
            cost = dict.fromkeys(steps, 0.0)
            for block in range(max(1, games // BLOCK)):
                config = build_config(
                    game=name,
                    bots=[BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")],
                    games_per_pair=BLOCK,
                    seed=f"{run}/{block}",
                )
                jobs = list(schedule(config))
                # Each job's seed and its players in seat order, as `play_batch` has them.
                games_of_jobs = [
                    (job.seed(config.seed), [players[index] for index in job.seats]) for job in jobs
                ]
                rng = random.Random(config.seed)
                start = game.initial_state(ruleset)
                started = time.process_time()
                for _ in range(BLOCK):
                    playout(start, rng, game.turn_cap * 2)
                cost["engine"] += time.process_time() - started
                started = time.process_time()
                for seed, seated in games_of_jobs:
                    seeded_playout(game, ruleset, seed, [player.name for player in seated])
                cost["seeded"] += time.process_time() - started
                started = time.process_time()
                records = [
                    play_game_data(GameSetup(game, ruleset, seated, seed), bots)
                    for seed, seated in games_of_jobs
                ]
                cost["recorded"] += time.process_time() - started
                started = time.process_time()
                play_batch(config, jobs, BatchOptions("bench", verify=DEFAULT_VERIFY))
                cost["batch"] += time.process_time() - started
                started = time.process_time()
                for record in records:
                    json_line(record)
                cost["line"] += time.process_time() - started
            for step in steps[1:4]:
                shares[step].append(100 * cost["engine"] / cost[step])
            played = max(1, games // BLOCK) * BLOCK
            least = cost["seeded"] + cost["line"] + runner[name] * played
            shares["ceiling"].append(100 * cost["engine"] / least)
        rows.append([name, *(spread(shares[step], ".0f") + "%" for step in shares)])
        print(rows[-1], file=sys.stderr)
    return "\n\n".join(
        [
            "Where a tournament game's CPU goes, in one process: random games step by step, "
            "each as a share of the engine's playout speed (the engine's loop above), "
            f"{games} games a step and run, median (range) of {runs} runs, the steps taking "
            f"turns {BLOCK} games at a time (load average {load()} at the end). The three "
            "steps play the same games, those of a tournament's schedule; the engine's loop "
            "plays games of its own:",
            table(
                [
                    "game",
                    "seeded streams",
                    "played and recorded (`play_game_data`)",
                    "a worker's batch",
                    "ceiling",
                ],
                rows,
            ),
            "Seeded streams: the tournament's games with nothing recorded, the dice from "
            "the seeded stream of each seat (and of the opening roll) and each bot's moves "
            "from its own generator seeded for the game, as `Bot.start_game` seeds it; the "
            "engine's loop draws everything from one generator seeded once a run, and a "
            "dice roll from the chance outcomes' weights. Seeding a stream (Python's "
            "Mersenne Twister) costs about as much as a few moves of a random game, "
            "whatever is drawn from it. Played and recorded: `play_game_data` with two "
            "random bots, each move asked of its bot, timed and written in the game's "
            "notation, the record's data made. A worker's batch: the games of a schedule "
            f"as a pool worker plays them (`play_batch`, `--verify {DEFAULT_VERIFY}`), each "
            "made a line of JSON and sent back. What the full table above adds to the "
            "batch's column is the runner's: the pool, storing the lines, syncing the file. "
            "Ceiling: the share a tournament would reach were its game loop and its batch "
            "free, each game costing what every tournament game costs whatever the code "
            "around it: the seeded streams' game, its record's line of JSON (`json_line`, "
            "timed on the records of the played and recorded step) and the runner's CPU a "
            "game at concurrency 1 (the table above, its median). The moves' own times and "
            "texts, which every record holds, are left out of it: the ceiling is above what "
            "any loop can reach.",
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
        "--games", type=int, default=4000, help="games per measurement (a half over a second)"
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
    speeds, runner = throughput(args.games, args.runs)
    text = "\n\n".join(
        [
            speeds,
            breakdown(args.games // 2, args.runs, runner),
            verify_share(args.games, args.runs),
            memory(sizes),
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
