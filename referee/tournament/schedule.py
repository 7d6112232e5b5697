"""The round robin: every pairing plays games in pairs with the seats swapped."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from referee.tournament.config import TournamentConfig


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


def schedule(config: TournamentConfig) -> list[GameJob]:
    jobs: list[GameJob] = []
    pair = 0
    for first, second in combinations(range(len(config.bots)), 2):
        for _ in range(config.games_per_pair // 2):
            jobs.append(GameJob(2 * pair, pair, (first, second)))
            jobs.append(GameJob(2 * pair + 1, pair, (second, first)))
            pair += 1
    return jobs
