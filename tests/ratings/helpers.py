"""Records for the ratings tests, built with the record models, their games frame, and synthetic
tournaments."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from referee.ratings.results import GameRows, Games, Selection, read_games
from referee.ratings.table import RatingOptions, RatingTable, build_tables
from referee.records.model import RECORD_TYPES, EventInfo, Player, Reason, Record, Result
from tests.records.helpers import write_jsonl


def games_from_records(records: Iterable[Record]) -> Games:
    """The games frame of records in memory, each added as `read_games` adds a file's."""
    rows = GameRows()
    for number, record in enumerate(records, 1):
        rows.add(record, record.turns[0].seat if record.turns else 0, "", number)
    return rows.games(Selection(), [])[0]


def record(
    seat0: str,
    seat1: str,
    winner: int | None,
    *,
    game: str = "thax",
    variant: str = "standard",
    points: int | None = None,
    reason: Reason = Reason.RULES,
    tournament: str | None = None,
    pairing: int | None = None,
    game_number: int | None = None,
    finished: bool = True,
) -> Record:
    """One game record: `winner` is the winning seat, or None for a draw."""
    result = None
    if finished:
        won = 0 if winner is None else 1
        result = Result(winner=winner, points=won if points is None else points, reason=reason)
    return RECORD_TYPES[game](
        game=game,
        ruleset=f"{game}/{variant}@1",
        players=[
            Player(name=seat0, kind="bot", spec=seat0),
            Player(name=seat1, kind="bot", spec=seat1),
        ],
        event=EventInfo(tournament=tournament, pairing=pairing, game_number=game_number),
        result=result,
    )


def expected_score(rating: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def synthetic_tournament(
    true_ratings: Sequence[float],
    games_per_pair: int,
    seed: int,
    *,
    tournament: str = "synthetic",
    draw_share: float = 0.5,
) -> list[Record]:
    """A round robin drawn from known ratings under the fitted model.

    Each pairing is played as colour-swapped game pairs with independent results. The
    expected score of a game is the Elo expectation of the ratings; a part of it comes as
    draws (at most what keeps the win and loss chances non-negative), so draws count as half
    exactly as the model says.
    """
    rng = np.random.default_rng(seed)
    names = [f"bot{i}" for i in range(len(true_ratings))]
    records: list[Record] = []
    number = 0
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            for k in range(games_per_pair):
                seat0, seat1 = (i, j) if k % 2 == 0 else (j, i)
                expected = expected_score(true_ratings[seat0], true_ratings[seat1])
                draw = draw_share * min(expected, 1 - expected)
                u = rng.random()
                winner = 0 if u < expected - draw / 2 else (None if u < expected + draw / 2 else 1)
                records.append(
                    record(
                        names[seat0],
                        names[seat1],
                        winner,
                        tournament=tournament,
                        pairing=number // 2,
                        game_number=number,
                    )
                )
                number += 1
    return records


def tables_from(
    tmp_path: Path, records: Sequence[Record], name: str = "games.jsonl", **options: object
) -> list[RatingTable]:
    """Write the records to a JSONL file, read it back and build the tables."""
    path = tmp_path / name
    write_jsonl(path, records)
    return build_tables(read_games([path]), RatingOptions(**options))  # type: ignore[arg-type]


def by_bot(table: RatingTable, column: str) -> dict[str, float]:
    return dict(zip(table.standings["bot"], table.standings[column], strict=True))


def widths(table: RatingTable) -> dict[str, float]:
    """The width of each bot's 95% interval."""
    frame = table.standings
    return dict(zip(frame["bot"], frame["elo_high"] - frame["elo_low"], strict=True))
