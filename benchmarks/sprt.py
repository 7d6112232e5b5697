"""SPRT: how many game pairs a test of elo0=0, elo1=5 (alpha = beta = 0.05) takes to decide,
by simulation, at true Elo 0, 2.5 and 5.

Run: .venv/bin/python benchmarks/sprt.py [--tests 400] [--write]
Pairs are drawn from a pentanomial model (each game drawn with the given draw rate, the second
game of a pair repeating the first's result with the given correlation, as shared dice or a
shared opening make it); every test looks at its LLR after every pair, as the runner does.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from common import report, table

from referee.ratings.sprt import SprtSpec, logistic_score, simulate

SPEC = SprtSpec(elo0=0, elo1=5, alpha=0.05, beta=0.05)
CAP = 400_000


def pair_model(elo: float, draw: float, correlation: float) -> np.ndarray:
    s = float(logistic_score(elo))
    game = np.array([1 - s - draw / 2, draw, s - draw / 2])
    same = np.zeros(5)
    same[[0, 2, 4]] = game
    return (1 - correlation) * np.convolve(game, game) + correlation * same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tests", type=int, default=400, help="simulated tests per Elo")
    parser.add_argument("--draw", type=float, default=0.3)
    parser.add_argument("--correlation", type=float, default=0.2)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    rows = []
    for elo in (0.0, 2.5, 5.0):
        sim = simulate(
            SPEC,
            pair_model(elo, args.draw, args.correlation),
            args.tests,
            CAP,
            np.random.default_rng(int(elo * 10) + 1),
        )
        decided = sim.pairs[sim.decisions >= 0]
        rows.append(
            [
                f"{elo:g}",
                f"{sim.pairs.mean():,.0f}",
                f"{statistics.median(sim.pairs.tolist()):,.0f}",
                f"{np.percentile(sim.pairs, 90):,.0f}",
                f"{sim.rate('H1'):.3f}",
                f"{len(decided)}/{args.tests}",
            ]
        )
    text = (
        f"SPRT {SPEC.text()}, {args.tests} simulated tests per row, draw rate {args.draw:g}, "
        f"pair correlation {args.correlation:g}, cap {CAP:,} pairs; the random draws are "
        "seeded, so every run gives these figures.\n\n"
        + table(
            [
                "true Elo",
                "mean pairs",
                "median pairs",
                "90th percentile",
                "H1 accepted",
                "decided",
            ],
            rows,
        )
    )
    report("sprt", "SPRT: game pairs to a decision", "benchmarks/sprt.py --write", text, args.write)


if __name__ == "__main__":
    main()
