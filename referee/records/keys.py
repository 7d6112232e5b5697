"""What makes a tournament game one of a kind, so that a game stored twice is found."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from referee.records.model import Record
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


_MEMBER = {
    name: re.compile(rb'"' + name.encode() + rb'"\s*:\s*(\{[^{}]*\})')
    for name in ("event", "match", "result")
}
"""A member holding a flat object (the event, the match, the result), found in a line that is
not JSON (a byte damaged in its turns) by byte search."""


def salvage(raw: bytes) -> tuple[GameKey | None, dict[str, Any]]:
    """The key of a tournament game from a stored line that fails the schema (a field added,
    deleted or retyped, even a line that is no longer JSON) while its key fields are intact,
    and its result as JSON data when that is readable ({} if not): a game whose line is
    damaged was played, and a runner that resumes must not play it again."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to be a record
        data = None
    if not isinstance(data, dict):
        data = {}
        for name, member in _MEMBER.items():
            found = list(member.finditer(raw))
            if found:  # the event comes before the turns, the result after them
                text = (found[-1] if name == "result" else found[0])[1]
                with contextlib.suppress(ValueError):
                    data[name] = json.loads(text)
    event, match, result = (data.get(name) for name in ("event", "match", "result"))
    result = result if isinstance(result, dict) else {}
    if not isinstance(event, dict):
        return None, result
    tournament = event.get("tournament")
    number = _count(event.get("game_number"))
    pairing = -1 if event.get("pairing") is None else _count(event.get("pairing"))
    match_game = _count(match.get("game")) if isinstance(match, dict) else 0
    if not isinstance(tournament, str) or number is None or pairing is None or match_game is None:
        return None, result
    return (tournament, pairing, number, match_game), result


def _count(value: object) -> int | None:
    """`value` if it is a count (an int >= 0, not a bool), else None."""
    return value if type(value) is int and value >= 0 else None
