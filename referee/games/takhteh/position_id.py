"""GNU Backgammon Position ID, as the GNU Backgammon program reads and shows it.

The 80-bit key lists the checkers of the player NOT on roll first, then those of the player on
roll; for each, points 1..24 counted from that player's own side and then the bar, each point
as one 1 bit per checker followed by a 0. The bits are packed least significant first into
10 bytes and written in Base64 without padding (14 characters).
"""

from __future__ import annotations

import base64
import binascii
import re

from referee.games.base import NotationError
from referee.games.takhteh.rules import BAR, CHECKERS, Board

_TEXT = re.compile(r"[A-Za-z0-9+/]{14}")
_BITS = 80


def _counts(board: Board) -> list[int]:
    """The 50 counts in key order: the opponent's points 1..24 and bar, then the mover's."""
    # The opponent's point q is the mover's point 25 - q, and its bar is index 0.
    theirs = [-n if n < 0 else 0 for n in board[24::-1]]
    mine = [n if n > 0 else 0 for n in board[1:]]
    return theirs + mine


def encode(board: Board) -> str:
    """The Position ID of `board` (seen from the player on roll)."""
    key = 0
    shift = 0
    for n in _counts(board):
        key |= ((1 << n) - 1) << shift
        shift += n + 1
    if shift > _BITS:
        raise ValueError("more checkers than a Position ID holds")
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def decode(text: str) -> Board:
    """The position (seen from the player on roll) of a Position ID; NotationError if invalid."""
    text = text.strip()
    if not _TEXT.fullmatch(text):
        raise NotationError(
            f"{text!r} is not a Position ID (14 characters of A-Z, a-z, 0-9, + and /)"
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error:
        raise NotationError(f"{text!r} is not valid Base64") from None
    key = int.from_bytes(raw, "little")
    counts: list[int] = []
    shift = 0
    while len(counts) < 50 and shift < _BITS:
        n = 0
        while shift < _BITS and key >> shift & 1:
            n += 1
            shift += 1
        shift += 1
        counts.append(n)
    if len(counts) < 50 or shift > _BITS:
        raise NotationError(f"Position ID {text!r} has more checkers than fit in its 80 bits")
    if key >> shift:
        raise NotationError(f"Position ID {text!r} has bits set after its last point")
    theirs, mine = counts[:25], counts[25:]
    for who, side in (("the player not on roll", theirs), ("the player on roll", mine)):
        if sum(side) > CHECKERS:
            raise NotationError(f"Position ID {text!r}: {who} has {sum(side)} checkers (max 15)")
    board = [0] * 26
    board[0] = -theirs[24]
    board[BAR] = mine[24]
    for point in range(1, 25):
        mover, opponent = mine[point - 1], theirs[24 - point]
        if mover and opponent:
            raise NotationError(
                f"Position ID {text!r}: both players have checkers on point {point} "
                "(of the player on roll)"
            )
        board[point] = mover - opponent
    result = tuple(board)
    if encode(result) != text:
        raise NotationError(f"Position ID {text!r} is not in canonical form")
    return result
