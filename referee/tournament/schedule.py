"""The schedule: which bots meet, in seat-swapped game pairs, in which order.

- round robin: every pairing of the bots;
- gauntlet: each of the first `seeds` bots meets every other bot; the others do not meet.

Each pairing plays `rounds x games_per_pair / 2` pairs. A pair's index among its pairing's
pairs says which opening of the suite it plays; how pairs are numbered is the layout below.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, combinations
from typing import Literal

from referee.tournament.config import TournamentConfig

Layout = Literal["by-round", "by-pairing"]
"""How pairs are numbered. `by-round`: round r holds one pair of every pairing, so a pair's
number (and seed) does not depend on how many rounds there are, and a tournament can grow
(`referee tournament extend`). `by-pairing`: all pairs of the first pairing, then of the
next; tournaments made before `extend` existed keep it, so they resume to the same games.
With two games per pairing both layouts are the same."""


@dataclass(frozen=True, slots=True)
class GameJob:
    number: int
    """Index of the game in the tournament; records carry it as event.game_number."""
    pair: int
    """Index of the seat-swapped pair; both games of a pair use the same dice by seat."""
    seats: tuple[int, int]
    """Indexes into the configuration's bots, seat 0 first."""
    round: int = 0
    """Index of the pair among its pairing's pairs (its round, in the by-round layout): the
    opening it plays."""

    def seed(self, tournament_seed: str) -> str:
        return f"{tournament_seed}/pair{self.pair}"

    def __reduce__(self) -> tuple[type[GameJob], tuple[int, int, tuple[int, int], int]]:
        # Every batch's jobs go to a worker pickled: a frozen dataclass with slots pickles its
        # fields by name through copyreg, four times as slow both ways, and that cost a
        # random-bot tournament a per cent of its time.
        return GameJob, (self.number, self.pair, self.seats, self.round)


def pairings(config: TournamentConfig) -> Iterator[tuple[int, int]]:
    """The pairings of bots that meet, as indexes into the configuration's bots."""
    everyone = range(len(config.bots))
    if config.pairing_system == "gauntlet":
        for seed in range(config.seeds):
            for other in everyone:
                if other > seed:
                    yield seed, other
        return
    yield from combinations(everyone, 2)


@dataclass(frozen=True, slots=True)
class Pairs:
    """The schedule's seat-swapped pairs by number, each worked out from its number when asked
    (`pairs[n]`, its two jobs): nothing is listed but the pairings, so that a schedule of a
    million games takes no more room than one of two, and no longer to set up."""

    met: tuple[tuple[int, int], ...]
    """The pairings, as `pairings` gives them."""
    per_pairing: int
    """Pairs each pairing plays."""
    layout: Layout

    def __len__(self) -> int:
        return self.per_pairing * len(self.met)

    def __getitem__(self, pair: int) -> tuple[GameJob, GameJob]:
        if not 0 <= pair < len(self):
            raise IndexError(f"pair {pair} of {len(self)}")
        if self.layout == "by-round":
            index, pairing = divmod(pair, len(self.met))
        else:
            pairing, index = divmod(pair, self.per_pairing)
        first, second = self.met[pairing]
        return (
            GameJob(2 * pair, pair, (first, second), index),
            GameJob(2 * pair + 1, pair, (second, first), index),
        )

    def jobs(self, stop: int | None = None) -> Iterator[GameJob]:
        """The jobs of the first `stop` pairs (of all when None), one at a time in order."""
        count = len(self) if stop is None else min(stop, len(self))
        return chain.from_iterable(map(self.__getitem__, range(count)))


def schedule_pairs(config: TournamentConfig, layout: Layout = "by-round") -> Pairs:
    return Pairs(tuple(pairings(config)), config.rounds * config.games_per_pair // 2, layout)


def schedule(config: TournamentConfig, layout: Layout = "by-round") -> list[GameJob]:
    return list(iter_schedule(config, layout))


def schedule_size(config: TournamentConfig) -> int:
    """How many games (or matches) the schedule holds, without listing them."""
    return 2 * len(schedule_pairs(config))


def iter_schedule(config: TournamentConfig, layout: Layout = "by-round") -> Iterator[GameJob]:
    """The schedule one job at a time: a runner of a million games holds the jobs in flight,
    not the whole list."""
    return schedule_pairs(config, layout).jobs()
