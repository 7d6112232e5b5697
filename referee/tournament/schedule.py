"""The round robin: every pairing plays games in pairs with the seats swapped."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
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

    def seed(self, tournament_seed: str) -> str:
        return f"{tournament_seed}/pair{self.pair}"


def schedule(config: TournamentConfig, layout: Layout = "by-round") -> list[GameJob]:
    pairings = list(combinations(range(len(config.bots)), 2))
    rounds = config.games_per_pair // 2
    if layout == "by-round":
        order = [(r, p) for r in range(rounds) for p in range(len(pairings))]
    else:
        order = [(r, p) for p in range(len(pairings)) for r in range(rounds)]
    jobs: list[GameJob] = []
    for pair, (_, index) in enumerate(order):
        first, second = pairings[index]
        jobs.append(GameJob(2 * pair, pair, (first, second)))
        jobs.append(GameJob(2 * pair + 1, pair, (second, first)))
    return jobs
