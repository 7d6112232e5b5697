"""Rating tables: one per game and variant, with standings, ratings, crosstable and LOS."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from referee.escaping import quoted
from referee.games import listing_order
from referee.ratings.errors import RatingsError
from referee.ratings.fit import Bound, Fit, FitGames, Interval, fit_ratings, los_matrix
from referee.ratings.incremental import DEFAULT_K, incremental_elo
from referee.ratings.pentanomial import PairCounts, count_pairs
from referee.ratings.results import ADJUSTED, Games
from referee.ratings.standings import FORFEIT_REASONS, crosstable, standings
from referee.wording import plural

STANDINGS_COLUMNS: tuple[str, ...] = (
    "rank",
    "bot",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "score_pct",
    "elo",
    "elo_low",
    "elo_high",
    "bound",
    "los_next_pct",
    "incremental_elo",
    "forfeits",
    *(f"forfeit_{reason}" for reason in FORFEIT_REASONS),
)
"""The columns of `RatingTable.standings`, in order (docs/ratings.md describes each)."""

BOUND_NOTES: dict[Bound, str] = {
    "lower": "≥: a lower bound, not an estimate: no bot outside this bot's group ever won or "
    "drew a game against it, so the games set no upper limit",
    "upper": "≤: an upper bound, not an estimate: this bot's group never won or drew a game "
    "against the bots outside it, so the games set no lower limit",
    "both": "~: neither estimate nor bound: this bot's group beat some bots outright and lost "
    "outright to others, so the games only place it between them",
}
"""The notes under a table with bounds. A bot's group: the bots linked to it by results
both ways (docs/ratings.md)."""


@dataclass(frozen=True)
class RatingOptions:
    """How the ratings are fitted; the defaults are those docs/ratings.md explains."""

    rating: float = 0.0
    """The average rating of the bots (of each pool without an anchor), or `anchor`'s."""
    anchor: str | None = None
    """A bot whose rating is fixed at `rating`, instead of fixing the average."""
    anchors: tuple[tuple[str, float], ...] = ()
    """Bots with fixed ratings (name, Elo), besides `anchor`."""
    advantage: float | None = None
    """The first-move advantage in Elo, or None to fit it."""
    prior: float = 1.0
    """Virtual drawn games per bot, spread over the pairs it played; keeps ratings finite."""
    interval: Interval = "robust"
    """How the 95% intervals are found: robust (sandwich) standard errors, the observed
    information alone, or a bootstrap over colour-swapped pairs."""
    samples: int = 1000
    """Bootstrap replicates."""
    seed: int = 0
    """Seed of the bootstrap, so that a table is the same each time it is made."""
    pairs: bool = True
    """Resample colour-swapped game pairs as units (pentanomial) in the bootstrap."""
    elo_k: float = DEFAULT_K
    """K-factor of the incremental Elo column."""
    luck_adjusted: bool = False
    """Score each game by its luck-adjusted result (the games frame's `ADJUSTED` column)
    instead of 1, 0.5 or 0: robust intervals only, and no bounds (docs/ratings.md)."""
    references: tuple[tuple[str, str], ...] = ()
    """With `luck_adjusted`, the reference each game's results were adjusted by (game name,
    spec; '' for a game without dice), for the notes."""

    def anchored(self) -> tuple[tuple[str, float], ...]:
        """Every anchor with its rating: `anchor` at `rating`, then `anchors`."""
        first = ((self.anchor, self.rating),) if self.anchor is not None else ()
        return first + tuple(self.anchors)

    def check(self) -> None:
        """Raise `RatingsError` for options that cannot make a table."""
        if not math.isfinite(self.rating):
            raise RatingsError(f"the rating must be a finite number, not {self.rating}")
        if not (self.prior > 0 and math.isfinite(self.prior)):
            raise RatingsError(f"the prior must be a positive number of games, not {self.prior}")
        if self.interval not in ("robust", "information", "bootstrap"):
            raise RatingsError(
                f"unknown interval {quoted(self.interval)} (known: robust, information, bootstrap)"
            )
        for name, value in self.anchored():
            if not math.isfinite(value):
                raise RatingsError(f"the rating of anchor {quoted(name)} must be a finite number")
        if self.advantage is not None and not math.isfinite(self.advantage):
            raise RatingsError(
                f"the first-move advantage must be a finite number, not {self.advantage}"
            )
        if self.luck_adjusted and self.interval != "robust":
            raise RatingsError(
                f"luck-adjusted ratings take robust intervals only, not {self.interval}: their "
                "scores are no wins and losses for the information or the bootstrap to count"
            )
        if self.interval == "bootstrap" and self.samples < 100:
            raise RatingsError(f"at least 100 bootstrap samples are needed, not {self.samples}")
        if self.seed < 0:
            raise RatingsError(f"the seed must be a whole number >= 0, not {self.seed}")
        if not (self.elo_k > 0 and math.isfinite(self.elo_k)):
            raise RatingsError(f"the K-factor must be a positive number, not {self.elo_k}")


@dataclass
class RatingTable:
    """The rating table of one game and variant."""

    game: str
    variant: str
    standings: pd.DataFrame
    """One row per bot in rank order, with the columns of `STANDINGS_COLUMNS`."""
    crosstable: pd.DataFrame
    """One row per (bot, opponent) that met; see `standings.crosstable`."""
    los: pd.DataFrame
    """Likelihood of superiority in percent: row bot stronger than column bot; rank order."""
    games: int
    """Finished games rated."""
    anchor: str
    """What the ratings are anchored to, in words."""
    interval: str
    """How the intervals were found, in words."""
    advantage: tuple[float, float, float]
    """The first-move advantage in Elo with its 95% interval (equal ends when given)."""
    advantage_fitted: bool
    """Whether the advantage was fitted (else given)."""
    draw_rate: float
    """The share of drawn games, in percent."""
    notes: list[str] = field(default_factory=list)
    """What the reader must know: games left out, separate pools, bounds."""

    @property
    def title(self) -> str:
        return f"{self.game}/{self.variant}" if self.variant else self.game


def build_tables(games: Games, options: RatingOptions | None = None) -> list[RatingTable]:
    """The rating tables of the games read, one per (game, variant) with finished games,
    listed by game as the registry lists them (`listing_order`), then by variant. Raises
    `RatingsError` for bad options or an anchor bot that played none of the games."""
    options = options or RatingOptions()
    options.check()
    frame = games.frame
    for name, _ in options.anchored():
        if not ((frame["seat0"] == name) | (frame["seat1"] == name)).any():
            raise RatingsError(f"the anchor bot {quoted(name)} played none of the games")
    tables = []
    for (game, variant), part in frame.groupby(["game", "variant"], observed=True, sort=True):
        unfinished = games.unfinished.get((str(game), str(variant)), 0)
        # Anchors given far apart overflow on the way (a chance of exactly 0 or 1): what
        # comes of it is a table with infinite bounds or a RatingsError, never a warning.
        with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
            table = _table(str(game), str(variant), part, unfinished, options)
        if table is not None:
            tables.append(table)
    return sorted(tables, key=lambda table: (listing_order(table.game), table.variant))


def _codes(column: pd.Series) -> np.ndarray:
    """Integer codes of a column's values in sorted order, -1 for missing values."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        # The categories' ranks through their codes: no text of a million rows is hashed.
        categories = column.cat.categories
        used = np.zeros(len(categories), dtype=bool)
        codes = column.cat.codes.to_numpy(dtype=np.int64)
        used[codes[codes >= 0]] = True
        rank = np.full(len(categories) + 1, -1, dtype=np.int64)  # the last: -1 stays -1
        order = np.argsort(np.asarray(categories, dtype=object)[used], kind="stable")
        rank[np.flatnonzero(used)[order]] = np.arange(len(order))
        return rank[codes]
    return pd.factorize(column, sort=True, use_na_sentinel=True)[0]


def _table(
    game: str, variant: str, part: pd.DataFrame, unfinished: int, options: RatingOptions
) -> RatingTable | None:
    rated = _rated_games(part)
    if rated is None:
        return None
    part, bots, seat0, seat1 = rated.part, rated.bots, rated.seat0, rated.seat1
    n = len(bots)
    winner = part["winner"].to_numpy(dtype=np.int64)
    half_points = np.where(winner == 0, 2, np.where(winner == 1, 0, 1))
    pair_key = _pair_keys(part) if options.pairs else None
    counts = count_pairs(n, seat0, seat1, half_points, pair_key)
    anchors = {bots.index(name): value for name, value in options.anchored() if name in bots}
    # Seat 0's score of each game as the ratings count it: its result, or luck-adjusted.
    adjusted = part[ADJUSTED].to_numpy(dtype=np.float64) if options.luck_adjusted else None
    score = half_points / 2 if adjusted is None else adjusted
    fit = _fit(part, rated, half_points, adjusted, pair_key, counts, anchors, options)

    table = standings(
        n,
        seat0,
        seat1,
        winner,
        part["points"].to_numpy(dtype=np.int64),
        part["reason"].astype(str).to_numpy(dtype=object),
    )
    table["bot"] = bots
    cross = crosstable(counts, bots)
    if adjusted is not None:
        table["score_pct"] = _adjusted_pct(n, seat0, seat1, adjusted)
        cross = _adjusted_crosstable(cross, bots, seat0, seat1, adjusted)
    table["elo"] = fit.ratings
    table["elo_low"] = fit.low
    table["elo_high"] = fit.high
    table["bound"] = fit.bounds
    order = _schedule_order(part)
    table["incremental_elo"] = incremental_elo(
        n,
        seat0[order],
        seat1[order],
        score[order],
        initial=float(fit.ratings.mean()),
        k_factor=options.elo_k,
    )
    table, los_frame = _ranked(table, fit, bots)

    notes = _luck_notes(options, game) + _notes(options, bool(anchors), unfinished, rated.self_play)
    notes += _pool_notes(fit.pools, bots, anchors)
    notes += [BOUND_NOTES[bound] for bound in ("lower", "upper", "both") if bound in fit.bounds]
    return RatingTable(
        game=game,
        variant=variant,
        standings=table[list(STANDINGS_COLUMNS)],
        crosstable=cross,
        los=los_frame,
        games=len(part),
        anchor=_anchor_words(options, anchors, bots),
        interval=_interval_words(options, int(counts.pentanomial.sum())),
        advantage=(fit.advantage, fit.advantage_low, fit.advantage_high),
        advantage_fitted=options.advantage is None,
        draw_rate=100 * float((winner < 0).mean()),
        notes=notes,
    )


@dataclass(frozen=True)
class _Rated:
    """The games of a table that are rated, their bots, and each game's bots by number."""

    part: pd.DataFrame
    bots: list[str]
    """Sorted names of the bots that played a rated game."""
    seat0: np.ndarray
    seat1: np.ndarray
    self_play: int
    """Games of a bot against itself, left out."""


def _rated_games(part: pd.DataFrame) -> _Rated | None:
    """The games to rate (not those of a bot against itself, which say nothing about its
    strength) with their bots numbered; None when no game is left."""
    names = sorted(set(part["seat0"].unique().tolist()) | set(part["seat1"].unique().tolist()))
    seat0, seat1 = _bot_codes(part["seat0"], names), _bot_codes(part["seat1"], names)
    rated = seat0 != seat1
    used = np.unique(np.concatenate([seat0[rated], seat1[rated]]))
    if len(used) == 0:
        return None
    renumber = np.full(len(names), -1)
    renumber[used] = np.arange(len(used))
    return _Rated(
        part=part[rated],
        bots=[names[code] for code in used],
        seat0=renumber[seat0[rated]],
        seat1=renumber[seat1[rated]],
        self_play=int((~rated).sum()),
    )


def _fit(
    part: pd.DataFrame,
    rated: _Rated,
    half_points: np.ndarray,
    adjusted: np.ndarray | None,
    pair_key: np.ndarray | None,
    counts: PairCounts,
    anchors: dict[int, float],
    options: RatingOptions,
) -> Fit:
    """The joint fit, each game seen from the seat that moved first (with seat 0's
    luck-adjusted results `adjusted`, scored by them)."""
    first_seat = part["first"].to_numpy(dtype=np.int64)
    seat0, seat1 = rated.seat0, rated.seat1
    fit_games = FitGames.of(
        len(rated.bots),
        np.where(first_seat == 0, seat0, seat1),
        np.where(first_seat == 0, seat1, seat0),
        np.where(first_seat == 0, half_points, 2 - half_points),
        pair_key,
        None if adjusted is None else np.where(first_seat == 0, adjusted, 1 - adjusted),
    )
    try:
        return fit_ratings(
            fit_games,
            counts,
            rating=options.rating,
            anchors=anchors,
            advantage=options.advantage,
            prior=options.prior,
            interval=options.interval,
            samples=options.samples,
            seed=options.seed,
        )
    except np.linalg.LinAlgError:
        # Anchors or an advantage thousands of Elo apart make every chance 0 or 1: the games
        # then say nothing and the fit's information matrix is singular.
        raise RatingsError(
            "the ratings cannot be fitted: the anchors or the first-move advantage given are "
            "so far apart that every game's outcome is certain and says nothing"
        ) from None


def _ranked(table: pd.DataFrame, fit: Fit, bots: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The standings in rank order with their ranks and each bot's likelihood of superiority
    over the next, and the LOS matrix in rank order."""
    n = len(bots)
    # Rank by rating; rounding first keeps ties (a perfect cycle) from being broken by the
    # last bits of floating point, so names then decide.
    rank = sorted(
        range(n), key=lambda i: (-np.round(fit.ratings[i], 6), -table.score_pct[i], bots[i])
    )
    los = los_matrix(fit)
    table["los_next_pct"] = np.nan
    for above, below in itertools.pairwise(rank):
        table.loc[above, "los_next_pct"] = 100 * los[above, below]
    table = table.iloc[rank].reset_index(drop=True)
    table["rank"] = np.arange(1, n + 1)
    ranked_names = [bots[i] for i in rank]
    los_frame = pd.DataFrame(
        100 * los[np.ix_(rank, rank)], index=ranked_names, columns=ranked_names
    )
    return table, los_frame


def _adjusted_pct(n: int, seat0: np.ndarray, seat1: np.ndarray, adjusted: np.ndarray) -> np.ndarray:
    """Each bot's mean luck-adjusted score in percent (the two seats' add up to 1)."""
    total = np.bincount(seat0, weights=adjusted, minlength=n)
    total += np.bincount(seat1, weights=1 - adjusted, minlength=n)
    games = np.bincount(seat0, minlength=n) + np.bincount(seat1, minlength=n)
    return 100 * total / np.maximum(games, 1)


def _adjusted_crosstable(
    cross: pd.DataFrame,
    bots: list[str],
    seat0: np.ndarray,
    seat1: np.ndarray,
    adjusted: np.ndarray,
) -> pd.DataFrame:
    """The crosstable with each bot's mean luck-adjusted score against the opponent."""
    n = len(bots)
    total = np.bincount(seat0 * n + seat1, weights=adjusted, minlength=n * n)
    total += np.bincount(seat1 * n + seat0, weights=1 - adjusted, minlength=n * n)
    index = pd.Index(bots)
    bot = index.get_indexer(pd.Index(cross["bot"]))
    opponent = index.get_indexer(pd.Index(cross["opponent"]))
    return cross.assign(score_pct=100 * total[bot * n + opponent] / cross["games"].to_numpy())


def _bot_codes(column: pd.Series, names: list[str]) -> np.ndarray:
    """The number of each game's bot in `names`, through the categories (fast for 1M rows)."""
    categorical = column.astype("category")
    numbers = pd.Index(names).get_indexer(categorical.cat.categories)
    return numbers[categorical.cat.codes.to_numpy()].astype(np.int64)


def _pair_keys(part: pd.DataFrame) -> np.ndarray:
    """A number per game naming its colour-swapped pair, -1 for a game without pairing.

    A pair is named by the tournament and the pairing index; records without a tournament
    id are paired within their file only.
    """
    tournament = _codes(part["tournament"])
    file = _codes(part["file"])
    source = np.where(tournament >= 0, tournament, tournament.max(initial=-1) + 1 + file)
    pairing = part["pairing"].to_numpy(dtype=np.int64, na_value=-1)
    return np.where(pairing >= 0, source * (pairing.max(initial=0) + 1) + pairing, -1)


def _schedule_order(part: pd.DataFrame) -> np.ndarray:
    """The order of the incremental Elo: by tournament id, then game number, then as read."""
    tournament = _codes(part["tournament"])
    number = part["game_number"].to_numpy(dtype=np.int64, na_value=np.iinfo(np.int64).max)
    return np.lexsort((np.arange(len(part)), number, tournament))


def _anchor_words(options: RatingOptions, anchors: dict[int, float], bots: list[str]) -> str:
    if anchors:
        return ", ".join(f"{bots[bot]} = {value:g}" for bot, value in anchors.items())
    return f"average = {options.rating:g}"


def _interval_words(options: RatingOptions, pairs: int) -> str:
    unit = f", {plural(pairs, 'colour-swapped game pair')} as units" if pairs else ""
    if options.interval == "information":
        return "95% from the observed information (rating ± 1.96 standard errors)"
    if options.interval == "robust":
        return f"95% robust (sandwich) standard errors, ± 1.96{unit}"
    return f"95% bootstrap ({options.samples} samples, seed {options.seed}{unit})"


def _luck_notes(options: RatingOptions, game: str) -> list[str]:
    if not options.luck_adjusted:
        return []
    reference = dict(options.references).get(game, "")
    if not reference:
        return [
            f"luck-adjusted ratings: {game} has no dice, so no luck: each game scores its "
            "result, with intervals from the spread of the game pairs' scores"
        ]
    return [
        f"luck-adjusted ratings: each game scores its result less its luck, measured by the "
        f"reference {reference} (docs/ratings.md); the scores shown are adjusted too"
    ]


def _notes(options: RatingOptions, anchored: bool, unfinished: int, self_play: int) -> list[str]:
    notes = []
    if unfinished:
        notes.append(f"{plural(unfinished, 'unfinished game')} left out")
    if self_play:
        notes.append(f"{plural(self_play, 'game')} of a bot against itself left out")
    if options.anchored() and not anchored:
        notes.append(f"no anchor bot played here: the ratings average {options.rating:g}")
    return notes


def _pool_notes(pools: np.ndarray, bots: list[str], anchors: dict[int, float]) -> list[str]:
    count = int(pools.max()) + 1
    if count == 1:
        return []
    groups = []
    for pool in range(count):
        members = [bots[i] for i in np.flatnonzero(pools == pool)]
        shown = ", ".join(members[:6]) + (
            f" and {len(members) - 6} more" if len(members) > 6 else ""
        )
        level = "anchored" if any(pools[bot] == pool for bot in anchors) else "averaged"
        groups.append(f"{{{shown}}} ({level})")
    return [
        f"the bots form {count} pools that never met, even through others: ratings compare"
        f" only within a pool, and each pool is anchored on its own: {'; '.join(groups)}"
    ]
