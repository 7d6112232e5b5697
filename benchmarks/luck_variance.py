"""How much variance the luck-adjusted result takes out of a duplicate-dice pair score, and how
many games each needs for a +-10 Elo 95% interval.

Run: .venv/bin/python benchmarks/luck_variance.py [--thax-pairs 2000] [--takhteh-pairs 500]
     [--write]
Each case is a tournament of two bots (fixed seed, one worker), played through the library as
`referee tournament run` plays it: seat-swapped pairs, both games of a pair with the same dice
by seat. Its games are analysed by the library's analysis (what `referee analyse` runs, each
game's default reference: THAX's exact values, Takhteh's `tdnet:depth=0`). Per pair, the first
bot's plain pair score is the sum of its two results, its adjusted pair score the sum of its
two luck-adjusted results. Reported: both means per game with 95% intervals, the mean of their
difference (zero in expectation), both variances, their ratio (the factor, with a bootstrap
95% interval over the pairs) and the games each needs for +-10 Elo.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from common import load_average, machine, report, table

from referee.analysis.run import analyse_files
from referee.analysis.summary import GameAnalysis
from referee.games import get_game
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament

SEED = "luck-variance"
Z = 1.96
"""The normal quantile of a two-sided 95% interval."""
ELO_HALF_WIDTH = 10.0
BOOTSTRAP = 2000


@dataclass(frozen=True, slots=True)
class Case:
    game: str
    bots: tuple[str, str]
    """The first is the bot whose pair scores are measured."""
    reference: str
    target: float
    """The factor the acceptance asks for."""


CASES = (
    Case("thax", ("greedy", "thax-perfect"), "exact", 4.0),
    Case("takhteh", ("greedy", "tdnet"), "tdnet:depth=0", 2.0),
)


def pair_scores(analyses: Iterable[GameAnalysis], bot: str) -> tuple[np.ndarray, np.ndarray]:
    """`bot`'s plain and luck-adjusted pair scores, a row per pair in the pairs' order: the sums
    of its results and of its adjusted results over the pair's two games (the records' event
    pairing). ValueError if a pair is not two games with the seats swapped."""
    pairs: dict[int, list[tuple[float, float]]] = {}
    seats: dict[int, list[int]] = {}
    for analysis in analyses:
        if analysis.key is None or analysis.result is None or analysis.adjusted is None:
            raise ValueError(f"game {analysis.game_number} is no finished tournament game")
        pair = analysis.key[1]
        seat = analysis.players.index(bot)
        pairs.setdefault(pair, []).append((analysis.result[seat], analysis.adjusted[seat]))
        seats.setdefault(pair, []).append(seat)
    for pair, taken in seats.items():
        if sorted(taken) != [0, 1]:
            raise ValueError(f"pair {pair} is not two seat-swapped games: {bot} sat {taken}")
    ordered = [pairs[pair] for pair in sorted(pairs)]
    plain = np.array([sum(result for result, _ in games) for games in ordered])
    adjusted = np.array([sum(value for _, value in games) for games in ordered])
    return plain, adjusted


def games_needed(score: float, pair_sd: float) -> int | None:
    """Games for a 95% interval of +-ELO_HALF_WIDTH Elo on a per-game score near `score`, with
    pair scores of standard deviation `pair_sd`: n pairs give the per-game mean a standard
    error of pair_sd / (2 sqrt(n)), and Elo = -400 log10(1/s - 1) moves by
    400 / (ln 10 s (1 - s)) per unit of score, so n = (Z pair_sd / 2 x dElo/ds / 10)^2.
    None at a score of 0 or 1, which has no Elo."""
    if not 0 < score < 1:
        return None
    slope = 400 / (math.log(10) * score * (1 - score))
    pairs = (Z * pair_sd / 2 * slope / ELO_HALF_WIDTH) ** 2
    return 2 * math.ceil(pairs)


def interval(values: np.ndarray, per_game: float) -> str:
    """The mean of `values` times `per_game`, +- its 95% half-width."""
    mean = values.mean() * per_game
    half = Z * values.std(ddof=1) / math.sqrt(len(values)) * per_game
    return f"{mean:.3f} ± {half:.3f}"


def factor_interval(plain: np.ndarray, adjusted: np.ndarray, seed: int = 0) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles of the variance ratio over pairs resampled with
    replacement."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(plain), size=(BOOTSTRAP, len(plain)))
    with np.errstate(divide="ignore", invalid="ignore"):  # a tiny run's resample may be flat
        ratios = plain[picks].var(axis=1, ddof=1) / adjusted[picks].var(axis=1, ddof=1)
    low, high = np.nanquantile(ratios, [0.025, 0.975])
    return float(low), float(high)


@dataclass(frozen=True, slots=True)
class Played:
    """A tournament's pair scores (`pair_scores`) and the references its analysis used."""

    plain: np.ndarray
    adjusted: np.ndarray
    engines: set[str]
    """The analysis' references, each game's default."""


def play_pairs(game: str, bots: tuple[str, str], pairs: int, seed: str) -> Played:
    """`pairs` seat-swapped pairs of the two bots, played through the library with one worker
    and analysed with each game's default reference; the first bot's pair scores."""
    config = build_config(
        game=game,
        bots=[BotEntry(name=name, spec=name) for name in bots],
        games_per_pair=2 * pairs,
        seed=seed,
    )
    with tempfile.TemporaryDirectory(prefix="referee-luck-") as name:
        folder = Path(name) / "t"
        run_tournament(folder, config, concurrency=1, verify="none")
        analyses = list(analyse_files([str(folder / "games.jsonl")], None))
    plain, adjusted = pair_scores(analyses, bots[0])
    assert len(plain) == pairs
    return Played(plain, adjusted, {a.engine for a in analyses})


def measure(case: Case, pairs: int) -> tuple[list[str], list[str]]:
    """The case's rows: means, variances."""
    played = play_pairs(case.game, case.bots, pairs, SEED)
    assert played.engines == {case.reference}
    plain, adjusted = played.plain, played.adjusted
    factor = plain.var(ddof=1) / adjusted.var(ddof=1)
    low, high = factor_interval(plain, adjusted)
    score = plain.mean() / 2
    label = f"{get_game(case.game).title}: {case.bots[0]} vs {case.bots[1]}, {case.reference}"
    met = "met" if factor >= case.target else "**missed**"
    means = [
        label,
        f"{pairs:,}",
        interval(plain, 0.5),
        interval(adjusted, 0.5),
        interval(plain - adjusted, 0.5),
    ]
    variances = [
        label,
        f"{plain.var(ddof=1):.4f}",
        f"{adjusted.var(ddof=1):.4f}",
        f"{factor:.2f} ({low:.2f}-{high:.2f})",
        f"{case.target:g}x {met}",
        *(
            "-" if games is None else f"{games:,}"
            for games in (
                games_needed(score, float(values.std(ddof=1))) for values in (plain, adjusted)
            )
        ),
    ]
    return means, variances


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--thax-pairs", type=int, default=2000)
    parser.add_argument("--takhteh-pairs", type=int, default=500)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    before = load_average()
    means, variances = [], []
    for case, pairs in zip(CASES, (args.thax_pairs, args.takhteh_pairs), strict=True):
        row, spread = measure(case, pairs)
        means.append(row)
        variances.append(spread)
    text = (
        f"Machine: {machine()}; load average {before} before the run, {load_average()} after;"
        f" one run, seed `{SEED}`, one worker: the figures are statistics of these games, not"
        " timings.\n\n"
        "The first bot's score per game, plain and luck-adjusted, and their difference (zero"
        " in expectation), with 95% intervals (1.96 standard errors over the pairs):\n\n"
        + table(["tournament", "pairs", "plain", "adjusted", "plain - adjusted"], means)
        + "\n\nVariance of the pair score (the sum of the first bot's two results of a pair,"
        " plain or adjusted), their ratio with a bootstrap 95% interval over the pairs"
        f" ({BOOTSTRAP:,} resamples), and the games each needs for a ±10 Elo 95% interval:\n\n"
        + table(
            [
                "tournament",
                "var plain",
                "var adjusted",
                "factor",
                "target",
                "games, plain",
                "games, adjusted",
            ],
            variances,
        )
    )
    report(
        "luck-variance",
        "Luck-adjusted pair scores: variance",
        ".venv/bin/python benchmarks/luck_variance.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
