"""Checks across the games of a match in one file: numbering, score, who starts, the end."""

from __future__ import annotations

from dataclasses import dataclass

from referee.records.model import Record
from referee.records.scan import WholeRecord

MatchKey = tuple[str | None, int | None, tuple[str, ...], int]


@dataclass
class _Standing:
    game: int
    score: list[int]
    last_winner: int | None


class MatchTracker:
    """Follows each match through a file. Games of several matches may interleave (a
    tournament's games.jsonl), so a match is known by its tournament, job, players, length."""

    def __init__(self) -> None:
        self.matches: dict[MatchKey, _Standing] = {}

    def check(self, record: Record | WholeRecord) -> list[tuple[str, str]]:
        """Problems of `record` as the next game of its match, as (code, message) pairs."""
        match = record.match_info()
        if match is None:
            return []
        key: MatchKey = (
            record.event.tournament,
            record.event.game_number if record.event.tournament else None,
            tuple(player.name for player in record.players),
            match.length,
        )
        # Game 1 starts a new match: a file may hold several matches of the same players
        # (a money session read from .mat is a row of one-point matches).
        fresh = _Standing(0, [0, 0], None)
        before = fresh if match.game == 1 else self.matches.get(key, fresh)
        problems: list[tuple[str, str]] = []
        if max(before.score) >= match.length:
            problems.append(
                ("match-over", f"game {match.game} after the match to {match.length} was won")
            )
        if match.game != before.game + 1:
            expected = before.game + 1
            problems.append(("match-order", f"game {match.game} of the match, expected {expected}"))
        if match.score != before.score:
            problems.append(
                ("match-score", f"the score before this game is {before.score}, not {match.score}")
            )
        if match.game > 1 and match.first != before.last_winner:
            problems.append(
                (
                    "match-first",
                    f"seat {before.last_winner} won the last game and starts this one, "
                    f"not seat {match.first}",
                )
            )
        score = list(match.score)
        winner = record.result.winner if record.result is not None else None
        if winner is not None and record.result is not None:
            score[winner] += record.result.points
        self.matches[key] = _Standing(match.game, score, winner)
        return problems
