"""What makes a tournament game one of a kind, so that a game stored twice is found."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.records.model import Record

if TYPE_CHECKING:
    from referee.records.scan import Header, HeaderWithTurns

GameKey = tuple[str, int, int, int]
"""(tournament id, pairing, game number, number of the game in its match or 0)."""


def game_key(record: Record | Header | HeaderWithTurns) -> GameKey | None:
    """The key of a tournament game (its record, or its header as records/scan.py reads it);
    None for a record that names no tournament game."""
    event = record.event
    if event.tournament is None or event.game_number is None:
        return None
    match = record.match_info()
    pairing = -1 if event.pairing is None else event.pairing
    return (event.tournament, pairing, event.game_number, 0 if match is None else match.game)


def describe_key(key: GameKey) -> str:
    tournament, pairing, number, match_game = key
    where = f"game {number}" + (f" (pairing {pairing})" if pairing >= 0 else "")
    return where + (f", match game {match_game}" if match_game else "") + f" of {tournament}"
