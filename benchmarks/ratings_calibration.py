"""Calibration of the rating fit by simulation: the figures of docs/ratings.md.

Runs the calibration of tests/ratings/test_ratings_calibration.py (true ratings normal with
sd 200, results drawn from the model with a first-move advantage of 30 Elo) over a few seeds
per case and prints the slope of fitted against true ratings, the coverage of the 95%
intervals, whether the advantage's interval held the truth, and the CPU time per fit.
`--interval` chooses the intervals (robust, the default, information or bootstrap).

    python benchmarks/ratings_calibration.py [--interval bootstrap]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from tests.ratings.test_ratings_calibration import calibration

CASES = ((10, 100_000, 5), (100, 100_000, 5), (500, 100_000, 3), (500, 1_000_000, 3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", choices=["robust", "information", "bootstrap"])
    interval = parser.parse_args().interval or "robust"
    for bots, games, seeds in CASES:
        started = time.process_time()
        results = [calibration(bots, games, seed, interval) for seed in range(seeds)]
        cpu = (time.process_time() - started) / seeds
        slopes = ", ".join(f"{slope:.3f}" for slope, _, _ in results)
        coverage = ", ".join(f"{100 * covered:.1f}%" for _, covered, _ in results)
        held = sum(held for _, _, held in results)
        print(
            f"{bots} bots, {games} games, {interval}: slopes {slopes}; coverage {coverage}; "
            f"advantage held {held} of {seeds}; {cpu:.2f} s CPU per case (simulation included)",
            flush=True,
        )


if __name__ == "__main__":
    main()
