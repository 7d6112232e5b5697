"""Why a game ended: the reasons a record's result gives (kept apart from the pydantic
model so that the command line can offer them as choices without building the models)."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why a game ended."""

    RULES = "rules"
    """Won, lost or drawn by the rules of the game."""
    RESIGN = "resign"
    TIME = "time"
    CRASH = "crash"
    ILLEGAL_MOVE = "illegal_move"
    PROTOCOL_ERROR = "protocol_error"
    ADJUDICATED = "adjudicated"
    """Decided by the referee, e.g. a draw at the turn cap."""


FORFEITS = frozenset({Reason.TIME, Reason.CRASH, Reason.ILLEGAL_MOVE, Reason.PROTOCOL_ERROR})
