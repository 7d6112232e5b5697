"""Memory and CPU time to set up a 1,000,000-game SPRT and to extend a two-bot tournament by
a million rounds: neither lists the schedule, so neither grows with it.

Run: .venv/bin/python benchmarks/lazy_schedule.py [--runs 5] [--write]
The SPRT set-up is `run_tournament` on a new folder up to its first game (a progress stand-in
stops it when told the total, before any worker starts). The extend is what `referee
tournament extend DIR --rounds 1000000` does, on a copy of a folder of two random THAX bots
that played its one pair. Memory is the peak of what Python allocates during the call, above
what it held before (`tracemalloc`, numpy's arrays included), in runs of their own: tracing
slows the code, so the CPU times come from other runs.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from common import RUN_SECONDS, conditions, load_average, report, spread, table

from referee.tournament.config import BotEntry, TournamentConfig, build_config
from referee.tournament.runner import run_tournament
from referee.tournament.sequential import extend_tournament
from referee.tournament.store import TournamentStore

GAMES = 1_000_000
ROUNDS = 1_000_000
BOUNDS = "elo0=0,elo1=5"


class Started(Exception):
    """Raised by the progress stand-in when the runner tells it the total: set-up is over."""


class StopAtStart:
    def start(self, total: int, already: int) -> None:
        raise Started

    def advance(self, games: object) -> None:  # never reached
        raise AssertionError


def two_bots(**fields: object) -> TournamentConfig:
    bots = [BotEntry(name="random", spec="random"), BotEntry(name="greedy", spec="greedy")]
    return build_config(game="thax", bots=bots, **fields)


def sprt_setup(games: int) -> Callable[[Path], None]:
    config = two_bots(games_per_pair=games, sprt=BOUNDS)

    def work(folder: Path) -> None:
        try:
            run_tournament(folder / "t", config, progress=StopAtStart())
        except Started:
            return
        raise AssertionError("the runner never said how many games it plays")

    return work


def extend(rounds: int) -> Callable[[Path], None]:
    def work(folder: Path) -> None:
        store = TournamentStore(folder / "t")
        with store.lock():
            _, added = extend_tournament(store, rounds=rounds)
        assert added == 2 * (rounds - 1), added

    return work


def played(source: Path) -> Callable[[Path], None]:
    """Copies the folder of a played two-bot tournament into the run's folder."""

    def prepare(folder: Path) -> None:
        shutil.copytree(source, folder / "t")

    return prepare


def measure(
    work: Callable[[Path], None], prepare: Callable[[Path], None], runs: int
) -> tuple[list[float], list[float], int]:
    """CPU seconds of one set-up, the mean of each of `runs` untraced runs, then MB of `runs`
    traced runs of one set-up (peak above the start), and the fewest set-ups a run held; each
    set-up in a folder of its own made by `prepare`, outside the measure."""
    seconds, megabytes, counts = [], [], []
    for _ in range(runs):
        spent, count = 0.0, 0
        while spent < RUN_SECONDS:
            with tempfile.TemporaryDirectory(prefix="referee-lazy-") as name:
                folder = Path(name)
                prepare(folder)
                started = time.process_time()
                work(folder)
                spent += time.process_time() - started
                count += 1
        seconds.append(spent / count)
        counts.append(count)
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="referee-lazy-") as name:
            folder = Path(name)
            prepare(folder)
            tracemalloc.start()
            base, _ = tracemalloc.get_traced_memory()
            work(folder)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            megabytes.append((peak - base) / 1e6)
    return seconds, megabytes, min(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-lazy-source-") as name:
        source = Path(name) / "t"
        run_tournament(source, two_bots(games_per_pair=2), concurrency=1, verify="none")
        # One small run of each first: the imports (numpy, the SPRT) are not set-up.
        for work, prepare in ((sprt_setup(2), lambda _: None), (extend(2), played(source))):
            measure(work, prepare, 1)
        before = load_average()
        cases = [
            (f"SPRT set-up, {GAMES:,} games", sprt_setup(GAMES), lambda _: None),
            (
                f"`extend --rounds {ROUNDS:,}`, two bots ({2 * ROUNDS:,} games)",
                extend(ROUNDS),
                played(source),
            ),
        ]
        rows = []
        for label, work, prepare in cases:
            seconds, megabytes, fewest = measure(work, prepare, args.runs)
            rows.append([label, f"{fewest:,}", spread(seconds, 4), spread(megabytes, 1)])
    text = (
        conditions(args.runs, before)
        + f" A run repeats the set-up, each in a new folder, until the set-ups have taken"
        f" {RUN_SECONDS:g} s of CPU; the figure is a set-up's mean in the run. Memory: the"
        " peak traced by `tracemalloc` above the start during one set-up, median and range of"
        " as many runs of their own.\n\n"
        + table(["what", "set-ups a run, at least", "CPU s a set-up", "memory growth MB"], rows)
    )
    report(
        "lazy-schedule",
        "Setting up a million games",
        ".venv/bin/python benchmarks/lazy_schedule.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
