"""The sequential probability ratio test (SPRT) of "is bot A stronger than bot B?".

Two hypotheses on A's Elo advantage over B: H0 `elo = elo0` and H1 `elo = elo1`. After each
result the log-likelihood ratio (LLR) of H1 against H0 is compared with two bounds set by the
error rates: at or below `log(beta / (1 - alpha))` the test accepts H0, at or above
`log((1 - beta) / alpha)` it accepts H1, in between it plays on.

The results are seat-swapped game pairs, counted as a *pentanomial*: A's score over both games
of a pair, 0, 1/2, 1, 3/2 or 2 points (see `pentanomial.py`). Pairs are independent where
single games are not (a pair shares its dice, its opening and the seat advantage), so the
test works on pairs. A game without its partner (the cap reached in the middle of a pair, a
pair that could not be completed) is counted in a *trinomial* of its own.

The likelihood of a hypothesis is the *generalized* one (GSPRT): the outcome probabilities
are not known, only the score they must give, so for each hypothesis the probabilities used
are the most likely ones, given the counts, among those whose expected score is that
hypothesis' score. For counts `n_k` of outcomes `x_k` (score per game, in [0, 1]) and a score
`s`, those probabilities are `p_k = q_k / (1 + lam * (x_k - s))`, with `q_k` the observed
frequencies and `lam` the root of `sum_k q_k (x_k - s) / (1 + lam (x_k - s)) = 0` (the
Lagrange condition of the constrained maximum). The LLR is `sum_k n_k log(p1_k / p0_k)`.
As fishtest does, an outcome never seen counts as 1e-3 of a game so that the maximum exists
from the first result on.

Elo is logistic Elo: a score of `1 / (1 + 10^(-elo / 400))`, as fishtest, cutechess-cli and
fastchess read it by default.

A luck-adjusted test (`--luck-adjusted`, docs/ratings.md) counts the same pairs by a
continuous score instead: A's two luck-adjusted results (each its result less its own rolls'
luck plus its opponent's, referee.analysis), per game. Those scores have no five outcomes
to count, so the model is normal: the pair scores are independent, with a mean (the score
each hypothesis gives) and a variance not known. The generalized likelihood ratio of a normal
model with its variance unknown is `(n / 2) log(V0 / V1)`, `Vk = v + dk^2` the mean square of
the pair scores about hypothesis k's score `sk`: `v` their variance, `dk` the mean's deviation
`m - sk`. Adjusted scores are skewed (a long tail of games the reference's luck misjudges),
and under skew a sample's mean and variance go together: with a long lower tail, a sample
that missed it has both a high mean and a small variance, and the plain ratio then accepts
H1 too easily (by simulation against THAX's exact score, 0.10 where alpha is 0.05). So each
deviation is corrected for the scores' skewness `g` (third central moment over `v^1.5`) by
Hall's transformation of the t statistic (Hall 1992, Annals of Statistics 20:1061), the
monotone form of Johnson's correction: with `T = sqrt(n) (m - sk) / sqrt(v)` and
`a = g / (3 sqrt(n))`, `T' = T + a / 2 + a T^2 + a^2 T^3 / 3`, and
`dk = T' sqrt(v) / sqrt(n)`; without skew it is the plain deviation, and it never changes the
order of two deviations (so a mean far above both hypotheses cannot read as one below them).
`normal_llr` needs the scores' count and their sums of powers 1 to 3 only (`PairMoments`).
So that the variance and skew are not read from a handful of pairs, the
test counts nothing before MIN_NORMAL_PAIRS pairs. docs/benchmarks.md measures its error
rates by simulation.

Every function takes counts with any number of leading axes, so that one call can run
thousands of simulated tests at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from referee.escaping import quoted
from referee.ratings.errors import RatingsError
from referee.wording import plural

PENTANOMIAL_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
"""A pair's outcomes as A's score per game: 0, 1/2, 1, 3/2 or 2 points over two games."""
TRINOMIAL_SCORES = np.array([0.0, 0.5, 1.0])
"""A single game's outcomes for A: loss, draw, win."""
EMPTY_CELL = 1e-3
"""The count given to an outcome never seen (fishtest's regularisation)."""
_NEWTON_STEPS = 200
MIN_NORMAL_PAIRS = 20
"""A luck-adjusted test's LLR is 0 before this many pairs: the variance of a few pair scores
can be near 0 by chance, and their LLR would then be as large as it likes; their skew is
noisier still."""

Decision = Literal["H0", "H1"]


class SprtError(RatingsError):
    """An SPRT specification that cannot be used."""

    code = "sprt"


@dataclass(frozen=True)
class SprtSpec:
    """The hypotheses and error rates of a test."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise SprtError(f"SPRT: elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise SprtError(f"SPRT: {name} must be between 0 and 0.5, not {value:g}")
        if max(abs(self.elo0), abs(self.elo1)) >= 2000:
            raise SprtError("SPRT: logistic Elo hypotheses must lie within +-2000")

    @classmethod
    def parse(cls, text: str) -> SprtSpec:
        """`elo0=0,elo1=5,alpha=0.05,beta=0.05` (elo0 and elo1 required)."""
        fields: dict[str, str] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
                raise SprtError(f"SPRT: {quoted(item)} is not one of elo0=, elo1=, alpha=, beta=")
            if key in fields:
                raise SprtError(f"SPRT: {key} given twice")
            fields[key] = value.strip()
        missing = [key for key in ("elo0", "elo1") if key not in fields]
        if missing:
            raise SprtError(f"SPRT: give {' and '.join(missing)} (e.g. elo0=0,elo1=5)")
        numbers: dict[str, float] = {}
        for key in fields:
            try:
                numbers[key] = float(fields[key])
            except ValueError:
                raise SprtError(f"SPRT: {key}={quoted(fields[key])} is not a number") from None
            if not math.isfinite(numbers[key]):
                raise SprtError(f"SPRT: {key} must be a finite number")
        return cls(**numbers)

    @property
    def lower(self) -> float:
        """At or below this LLR the test accepts H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """At or above this LLR the test accepts H1."""
        return math.log((1 - self.beta) / self.alpha)

    def text(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"

    __str__ = text  # as a configuration and its history write it


def logistic_score(elo: float | np.ndarray) -> float | np.ndarray:
    """The expected score of a player `elo` points stronger."""
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=float) / 400))


def logistic_elo(score: float | np.ndarray) -> float | np.ndarray:
    """The Elo difference that gives `score` (infinite at 0 and 1)."""
    score = np.asarray(score, dtype=float)
    with np.errstate(divide="ignore"):
        return -400 * np.log10(1 / score - 1)


def _frequencies(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The counts with empty cells filled in, and their frequencies."""
    filled = np.maximum(np.asarray(counts, dtype=float), EMPTY_CELL)
    return filled, filled / filled.sum(axis=-1, keepdims=True)


def _tilted(q: np.ndarray, x: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The most likely outcome probabilities (given frequencies `q`) whose mean is `target`.

    `target` has the leading shape of `q` and must lie strictly between the outcomes' extremes.
    """
    shift = x - target[..., None]
    # 1 + lam * shift > 0 for every outcome bounds lam to (-1 / max shift, -1 / min shift).
    low = -1 / shift.max(axis=-1)
    high = -1 / shift.min(axis=-1)
    lam = np.zeros_like(low)
    # Newton's method on the Lagrange condition, which falls as lam rises, kept inside the
    # bracket of the root by bisecting whenever a step would leave it. A handful of steps
    # in practice; a root close to a bound (an outcome almost never seen) takes more.
    for _ in range(_NEWTON_STEPS):
        weighted = q * shift / (1 + lam[..., None] * shift)
        condition = weighted.sum(axis=-1)
        if (np.abs(condition) < 1e-13).all():
            break
        slope = -(weighted * shift / (1 + lam[..., None] * shift)).sum(axis=-1)
        low = np.where(condition > 0, lam, low)
        high = np.where(condition < 0, lam, high)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = lam - condition / slope
        inside = (step > low) & (step < high)
        lam = np.where(condition == 0, lam, np.where(inside, step, (low + high) / 2))
    return q / (1 + lam[..., None] * shift)


def _llr(counts: np.ndarray, x: np.ndarray, s0: float, s1: float) -> np.ndarray:
    filled, q = _frequencies(counts)
    shape = filled.shape[:-1]
    p0 = _tilted(q, x, np.full(shape, s0))
    p1 = _tilted(q, x, np.full(shape, s1))
    return (filled * np.log(p1 / p0)).sum(axis=-1)


def llr(spec: SprtSpec, pentanomial: np.ndarray, trinomial: np.ndarray | None = None) -> np.ndarray:
    """The LLR of H1 against H0 for the pair counts (last axis: 5 outcomes, A's score 0..2)
    and the counts of single games (last axis: A's losses, draws, wins), if any."""
    pentanomial = np.asarray(pentanomial, dtype=float)
    total = np.zeros(pentanomial.shape[:-1])
    s0, s1 = float(logistic_score(spec.elo0)), float(logistic_score(spec.elo1))
    parts = [(pentanomial, PENTANOMIAL_SCORES)]
    if trinomial is not None:
        parts.append((np.asarray(trinomial, dtype=float), TRINOMIAL_SCORES))
    for counts, x in parts:
        seen = counts.sum(axis=-1) > 0
        if seen.any():
            total = total + np.where(seen, _llr(counts, x, s0, s1), 0.0)
    return total


@dataclass(frozen=True)
class PairMoments:
    """The luck-adjusted pair scores of a test (A's score per game over a pair), as the normal
    model needs them: their count and their sums of powers 1, 2 and 3 (arrays of any one
    shape, one entry a test)."""

    count: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    cubes: np.ndarray

    @staticmethod
    def of(scores: np.ndarray) -> PairMoments:
        """The moments of the scores along the last axis."""
        scores = np.asarray(scores, dtype=float)
        return PairMoments(
            np.full(scores.shape[:-1], scores.shape[-1], dtype=float),
            scores.sum(axis=-1),
            (scores**2).sum(axis=-1),
            (scores**3).sum(axis=-1),
        )

    def add(self, score: float | np.ndarray) -> PairMoments:
        """These moments and one score more for each test."""
        return PairMoments(
            self.count + 1,
            self.total + score,
            self.squares + score * score,
            self.cubes + score * score * score,
        )


def normal_llr(spec: SprtSpec, moments: PairMoments) -> np.ndarray:
    """The LLR of H1 against H0 under the normal model of pair scores with an unknown
    variance, each hypothesis' deviation corrected for the scores' skew (Hall's transformation
    of the t statistic): (n / 2) log(V0 / V1), Vk = v + dk^2; 0 before MIN_NORMAL_PAIRS
    pairs."""
    n = np.asarray(moments.count, dtype=float)
    s0, s1 = float(logistic_score(spec.elo0)), float(logistic_score(spec.elo1))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        mean, square = moments.total / n, moments.squares / n
        variance = np.maximum(square - mean * mean, 1e-300)
        third = moments.cubes / n - 3 * mean * square + 2 * mean**3
        scale = np.sqrt(variance / n)
        a = third / variance**1.5 / (3 * np.sqrt(n))

        def deviation(score: float) -> np.ndarray:
            t = (mean - score) / scale
            corrected: np.ndarray = (t + a / 2 + a * t * t + a * a * t**3 / 3) * scale
            return corrected

        ratio = n / 2 * np.log((variance + deviation(s0) ** 2) / (variance + deviation(s1) ** 2))
    return np.where(n >= MIN_NORMAL_PAIRS, ratio, 0.0)


def normal_estimate(moments: PairMoments) -> EloEstimate:
    """A's Elo advantage from the mean of its pair scores, with the 95% interval of that mean
    (the pair scores' sample standard deviation over the square root of their count)."""
    n = float(moments.count)
    if n == 0:
        return EloEstimate(math.nan, -math.inf, math.inf)
    mean = float(moments.total) / n
    variance = max(float(moments.squares) / n - mean * mean, 0.0) * n / max(n - 1, 1)
    se = math.sqrt(variance / n)
    # The mean of adjusted scores may leave [0, 1] by chance: its Elo is then infinite.
    clipped = min(max(mean, 0.0), 1.0)
    return EloEstimate(
        float(logistic_elo(clipped)),
        float(logistic_elo(min(max(mean - 1.959964 * se, 0.0), 1.0))),
        float(logistic_elo(min(max(mean + 1.959964 * se, 0.0), 1.0))),
    )


@dataclass(frozen=True)
class EloEstimate:
    """A's Elo advantage estimated from the counts, with a 95% interval."""

    elo: float
    lower: float
    upper: float


def elo_estimate(pentanomial: np.ndarray, trinomial: np.ndarray | None = None) -> EloEstimate:
    """The logistic Elo of the mean score, its interval from the score's standard error with
    pairs as the independent units (a single game counts as an independent unit of its own).

    The estimate after a sequential test is slightly biased towards the bound it crossed,
    as with every SPRT tool; the interval is the fixed-sample one.
    """
    pentanomial = np.asarray(pentanomial, dtype=float)
    trinomial = np.zeros(3) if trinomial is None else np.asarray(trinomial, dtype=float)
    # Each unit's score as points per game, weighted by its games (2 for a pair, 1 alone).
    values = np.concatenate([PENTANOMIAL_SCORES, TRINOMIAL_SCORES])
    weights = np.concatenate([pentanomial * 2, trinomial])
    games = weights.sum()
    if games == 0:
        return EloEstimate(math.nan, -math.inf, math.inf)
    mean = float((weights * values).sum() / games)
    # Variance of the total score: each unit contributes its games x its own score's spread.
    units_var = (pentanomial * (2 * (PENTANOMIAL_SCORES - mean)) ** 2).sum() + (
        trinomial * (TRINOMIAL_SCORES - mean) ** 2
    ).sum()
    se = math.sqrt(units_var) / games
    low, high = mean - 1.959964 * se, mean + 1.959964 * se
    return EloEstimate(
        float(logistic_elo(mean)),
        float(logistic_elo(max(low, 0.0))),
        float(logistic_elo(min(high, 1.0))),
    )


@dataclass(frozen=True)
class SprtState:
    """Where a test stands."""

    spec: SprtSpec
    llr: float
    pairs: int
    singles: int
    estimate: EloEstimate
    luck_adjusted: bool = False
    """Whether the pairs are scored by their luck-adjusted results (`normal_llr`)."""

    @property
    def decision(self) -> Decision | None:
        if self.llr >= self.spec.upper:
            return "H1"
        if self.llr <= self.spec.lower:
            return "H0"
        return None

    @property
    def games(self) -> int:
        return 2 * self.pairs + self.singles

    def text(self) -> str:
        """One line: `SPRT elo0=0,elo1=5: LLR 2.98 [-2.94, 2.94] H1 accepted after 812 games
        (406 pairs); Elo +12.3 [+4.1, +20.6]`."""
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}[self.decision]
        est = self.estimate
        adjusted = " (luck-adjusted)" if self.luck_adjusted else ""
        return (
            f"SPRT {self.spec.text()}{adjusted}: LLR {self.llr:.2f} "
            f"[{self.spec.lower:.2f}, {self.spec.upper:.2f}] {verdict} after {self.counted()}; "
            f"Elo {est.elo:+.1f} [{est.lower:+.1f}, {est.upper:+.1f}]"
        )

    def counted(self) -> str:
        """`812 games (406 pairs)`: what the test has counted."""
        return f"{plural(self.games, 'game')} ({plural(self.pairs, 'pair')})"


def sprt_state(
    spec: SprtSpec, pentanomial: np.ndarray, trinomial: np.ndarray | None = None
) -> SprtState:
    """The test after these counts (one test: 1-d arrays)."""
    pentanomial = np.asarray(pentanomial, dtype=float)
    tri = np.zeros(3) if trinomial is None else np.asarray(trinomial, dtype=float)
    return SprtState(
        spec,
        float(llr(spec, pentanomial, tri)),
        int(pentanomial.sum()),
        int(tri.sum()),
        elo_estimate(pentanomial, tri),
    )


def normal_state(spec: SprtSpec, moments: PairMoments) -> SprtState:
    """A luck-adjusted test after these pair scores (one test: 0-d moments)."""
    return SprtState(
        spec,
        float(normal_llr(spec, moments)),
        int(moments.count),
        0,
        normal_estimate(moments),
        luck_adjusted=True,
    )


@dataclass(frozen=True)
class Simulation:
    """Many simulated tests: each one's decision and how many pairs it took."""

    decisions: np.ndarray
    """(tests,) 1 for H1, 0 for H0, -1 for none by the cap."""
    pairs: np.ndarray
    """(tests,) pairs played when the test stopped."""

    def rate(self, decision: Decision) -> float:
        return float(np.mean(self.decisions == (1 if decision == "H1" else 0)))


def simulate(
    spec: SprtSpec,
    pair_probabilities: np.ndarray,
    tests: int,
    cap_pairs: int,
    rng: np.random.Generator,
    every: int = 1,
) -> Simulation:
    """Run `tests` independent SPRTs on pairs drawn from `pair_probabilities` (the five
    pentanomial outcomes, A's score 0..2), each until a bound or `cap_pairs`, looking at the
    LLR after every `every` pairs: what `referee tournament run --sprt` does, many times."""
    probabilities = np.asarray(pair_probabilities, dtype=float)
    counts = np.zeros((tests, PENTANOMIAL_SCORES.size))
    decisions = np.full(tests, -1)
    pairs = np.full(tests, cap_pairs)
    active = np.arange(tests)
    played = 0
    while played < cap_pairs and active.size:
        step = min(every, cap_pairs - played)
        counts[active] += rng.multinomial(step, probabilities, size=active.size)
        played += step
        ratio = llr(spec, counts[active])
        done = (ratio >= spec.upper) | (ratio <= spec.lower)
        decisions[active[done]] = np.where(ratio[done] >= spec.upper, 1, 0)
        pairs[active[done]] = played
        active = active[~done]
    return Simulation(decisions, pairs)
