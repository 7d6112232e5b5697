"""Thai checkers move notation (PDN GameType 31 squares): `22-18`, `26x17x10`.

Written: a move that captures nothing is `from-to`; a capture lists its start and every
landing square joined by `x`. Since each captured piece stands directly before its landing
square, the landing squares name the captured pieces too: two different capture lines never
share one text.

Read: `x`, `X`, `-` and `:` all separate squares (GameType 31 writes captures with `-`).
`a-b` is a capture when the square just before b on the line from a holds an opposing piece,
since no quiet move can end there, or when a capture is compulsory and a legal capture line
runs from a to b (the short form below, written with `-`). A capture written with only some
of its landing squares (`26x10` for `26x17x10`) is read as the one line it abbreviates; if
lines to different positions match, the text is ambiguous and is refused.
"""

from __future__ import annotations

import functools
import re

from referee.escaping import quoted
from referee.games.base import NotationError
from referee.games.thai.geometry import DIRECTIONS, STEP
from referee.games.thai.rules import QUIET_MOVES, ThaiMove, ThaiState

_SEPARATOR = re.compile(r"\s*[-xX:]\s*")

STEPS: dict[str, ThaiMove] = {
    f"{origin + 1}-{target + 1}": QUIET_MOVES[origin][target + 1]
    for origin in range(32)
    for d in DIRECTIONS
    if (target := STEP[d][origin]) >= 0
}
"""`a-b` between neighbouring squares: never a capture, so read without looking further."""


_SQUARES = {str(n): n for n in range(1, 33)} | {f"0{n}": n for n in range(1, 10)}
"""The texts of the squares, with the leading zero PDN readers accept."""


def parse_move(state: ThaiState, text: str) -> ThaiMove:
    return _read(state, text)[0]


def read_move(state: ThaiState, text: str) -> tuple[ThaiMove, ThaiState]:
    """The move `text` denotes and the state it leads to: a capture was played to be read,
    and is not played again."""
    move, after = _read(state, text)
    return move, state.play(move) if after is None else after


def _read(state: ThaiState, text: str) -> tuple[ThaiMove, ThaiState | None]:
    """The move `text` denotes, with the state it leads to when reading it played it."""
    step = STEPS.get(text)
    if step is not None:
        return step, None
    squares, capture = _plain(text)
    if squares is None:
        # Not the plain form: other separators (X, :), spaces, or no move at all.
        written = text.strip()
        squares = tuple(_square(part, text) for part in _SEPARATOR.split(written))
        capture = "x" in written or "X" in written or ":" in written
        if len(squares) < 2:
            raise NotationError(
                f"{quoted(text)} is not a move: write from-to (22-18) or a capture with every "
                "landing square (26x17x10)"
            )
    if not capture:
        capture = len(squares) > 2 or state.reads_as_capture(squares[0], squares[1])
    if capture:
        return state.resolve_capture(ThaiMove(squares, True))
    quiet = QUIET_MOVES[squares[0] - 1].get(squares[1]) or ThaiMove(squares)
    if state.has_capture():
        # No quiet move is legal now: `a-b` may be the short form of a capture line.
        short, after = state.resolve_capture(ThaiMove(squares, True))
        if short in state.legal_moves():
            return short, after
    return quiet, None


@functools.lru_cache(maxsize=4096)
def _plain(text: str) -> tuple[tuple[int, ...] | None, bool]:
    """The squares of `a-b` or `axbxc` written without spaces, and whether `x` was used (the
    same captures and king moves come back again and again in a file of games, so each text
    is read once)."""
    capture = "x" in text
    parts = text.split("x" if capture else "-")
    squares = []
    for part in parts:
        square = _SQUARES.get(part)
        if square is None:
            return None, capture
        squares.append(square)
    if len(squares) < 2:
        return None, capture
    return tuple(squares), capture


def _square(part: str, text: str) -> int:
    square = _SQUARES.get(part)
    if square is None:
        if part.isascii() and part.isdigit():
            raise NotationError(
                f"{quoted(text)}: there is no square {int(part)} (squares are 1..32)"
            )
        raise NotationError(f"{quoted(text)} is not a move: {quoted(part)} is not a square number")
    return square


_QUIET_TEXTS: dict[ThaiMove, str] = {
    move: f"{move.path[0]}-{move.path[1]}" for moves in QUIET_MOVES for move in moves.values()
}
"""The text of every quiet move, written once: most moves of a game are quiet, and joining the
numbers of its squares cost a tournament of random bots a twentieth of its time."""


def format_move(move: ThaiMove) -> str:
    text = _QUIET_TEXTS.get(move)
    if text is None:
        text = ("x" if move.capture else "-").join(map(str, move.path))
    return text
