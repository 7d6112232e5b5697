"""The schedule: which bots meet, in seat-swapped game pairs, in which order.

- round robin: every pairing of the bots;
- gauntlet: each of the first `seeds` bots meets every other bot; the others do not meet;
- rounds: the whole schedule again, each round after the last.

Within a round, each pairing plays `games_per_pair / 2` pairs, one after the other. A pair's
index among its pairing's pairs (over all rounds) says which opening of the suite it plays.
With one round this is the order of the first tournaments, so their folders still resume.
"""

from __future__ import annotations

from collections.abc import Iterator
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
    round: int = 0
    """Index of the pair among its pairing's pairs: the opening it plays."""

    def seed(self, tournament_seed: str) -> str:
        return f"{tournament_seed}/pair{self.pair}"


def pairings(config: TournamentConfig) -> Iterator[tuple[int, int]]:
    """The pairings of bots that meet, as indexes into the configuration's bots."""
    everyone = range(len(config.bots))
    if config.format == "gauntlet":
        for seed in range(config.seeds):
            for other in everyone:
                if other > seed:
                    yield seed, other
        return
    yield from combinations(everyone, 2)


def schedule(config: TournamentConfig) -> list[GameJob]:
    jobs: list[GameJob] = []
    pair = 0
    per_round = config.games_per_pair // 2
    met = list(pairings(config))
    for round_number in range(config.rounds):
        for first, second in met:
            for index in range(per_round):
                played = round_number * per_round + index
                jobs.append(GameJob(2 * pair, pair, (first, second), played))
                jobs.append(GameJob(2 * pair + 1, pair, (second, first), played))
                pair += 1
    return jobs
