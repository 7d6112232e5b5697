"""Backgammon move notation for Takhteh: `8/5 6/5`, `bar/22`, `6/off`, `13/7*`, `6/2(2)`.

Import accepts hits marked with `*` or not, doubles as four moves or with counts `(2)`,
chained moves `24/18/13`, moves in any order (separated by spaces or commas), `25` for the bar
and `0` for off (as `.mat` files write them) and an optional roll prefix `31:` that must match
the dice. The empty text is
the turn with no legal move. Export writes one canonical form, gnubg's: moves from the highest
point down, the moves of one checker joined (`24/13`, keeping a hit on the way as `24/18*/13`),
hits marked, and repeated moves counted (`6/2(2)`).
"""

from __future__ import annotations

import functools
import itertools

from referee.games.base import IllegalMove, NotationError
from referee.games.takhteh.rules import (
    BAR,
    HOME,
    OFF,
    Board,
    Leg,
    TakhtehMove,
    TakhtehState,
    point_name,
)

_POINTS = {str(n): n for n in range(26)} | {"bar": BAR, "off": OFF}


def _point(text: str, token: str) -> int:
    point = _POINTS.get(text)
    if point is None:
        point = _POINTS.get(text.lower())
        if point is None:
            raise NotationError(f"{token!r}: {text!r} is not a point (1..24, bar or off)")
    return point


def parse_segments(
    text: str, roll: tuple[int, int] | None = None
) -> tuple[tuple[Leg, ...], frozenset[int]]:
    """The checker moves written in `text` (highest first) and the points marked as hits.

    Each written step `a/b` is one segment (it may span several dice); a count repeats the
    whole token. NotationError when the text is not move notation, or when its roll prefix
    does not match `roll`.
    """
    segments, marked, dice = _read(text)
    if dice and roll is not None:
        _check_prefix(dice, roll)
    return segments, frozenset(marked)


def _check_prefix(dice: str, roll: tuple[int, int]) -> None:
    if sorted(map(int, dice)) != sorted(roll):
        raise NotationError(
            f"the move is written for the roll {dice}, but the dice are {roll[0]}{roll[1]}"
        )


@functools.lru_cache(maxsize=8192)
def _read(text: str) -> tuple[tuple[Leg, ...], tuple[int, ...], str]:
    """The segments (highest first), the points marked as hits and the roll prefix ("" when
    there is none) of a moves text; the same texts come back again and again in a file of
    games, so each is read once."""
    body = text
    dice = ""
    if ":" in text:
        head, _, body = text.partition(":")
        dice = head.strip()
        if len(dice) != 2 or not all("1" <= d <= "6" for d in dice):
            raise NotationError(f"{head!r} is not a roll (write it as two digits, e.g. 31:)")
    segments: list[Leg] = []
    marked: list[int] = []
    for token in (body.replace(",", " ") if "," in body else body).split():
        token_segments, token_marked = _read_token(token)
        segments += token_segments
        if token_marked:
            marked += token_marked
    segments.sort(reverse=True)
    return tuple(segments), tuple(sorted(set(marked))) if marked else (), dice


@functools.lru_cache(maxsize=4096)
def _read_token(token: str) -> tuple[tuple[Leg, ...], tuple[int, ...]]:
    """The segments and hit marks of one written move (`13/7*`, `24/18/13`, `6/2(2)`)."""
    count = 1
    steps = token
    if token[-1] == ")":
        steps, paren, number = token[:-1].partition("(")
        if not paren or number not in ("1", "2", "3", "4"):
            raise NotationError(f"{token!r}: a count is written (1) to (4)")
        count = int(number)
    parts = steps.split("/")
    if len(parts) < 2:
        raise NotationError(f"{token!r} is not a move (write from/to, e.g. 13/7)")
    points: list[int] = []
    marked: list[int] = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        if part[-1:] == "*":
            if index == 0:
                raise NotationError(f"{token!r}: a hit is marked where a checker lands")
            point = _point(part[:-1], token)
            marked.append(point)
        else:
            point = _point(part, token)
        if index == 0:
            if point == OFF:
                raise NotationError(f"{token!r}: a move cannot start from off")
        elif point == BAR:
            raise NotationError(f"{token!r}: a move cannot end on the bar")
        elif point == OFF and index < last:
            raise NotationError(f"{token!r}: nothing moves on from off")
        points.append(point)
    return tuple(itertools.pairwise(points)) * count, tuple(marked)


def parse_move(state: TakhtehState, text: str) -> TakhtehMove:
    """The play `text` denotes in `state` (its legality is checked by `state.play`)."""
    segments, marked, dice = _read(text)
    if dice and state.roll is not None:
        _check_prefix(dice, state.roll)
    if marked:
        board = state.board
        for point in marked:
            if not 0 < point < BAR or board[point] != -1:
                raise IllegalMove(
                    "takhteh.hit-mark",
                    f"{point_name(point)}* marks a hit, but there is no opposing blot on "
                    f"{point_name(point)} to hit",
                )
    return segments


def format_legs(board: Board, legs: tuple[Leg, ...]) -> str:
    """The canonical text of a play given as legs of one die each, on `board` before it."""
    chains: list[list[int]] = []
    for src, dst in sorted(legs, reverse=True):
        for chain in chains:
            end = chain[-1]
            # A checker that hit in the home board stops there, so no chain goes through such
            # a point; a hit elsewhere stays written as a point on the way (24/18*/13).
            if end == src and not (board[end] == -1 and end <= HOME):
                if board[end] != -1:
                    chain.pop()
                chain.append(dst)
                break
        else:
            chains.append([src, dst])
    # Chains keep the order of their first legs; a repeated chain is counted where it first
    # comes (as GNU Backgammon writes plays).
    counts: dict[tuple[int, ...], int] = {}
    for chain in chains:
        key = tuple(chain)
        counts[key] = counts.get(key, 0) + 1
    tokens: list[str] = []
    marked: set[int] = set()
    for key, count in counts.items():
        parts = [point_name(key[0])]
        for point in key[1:]:
            mark = ""
            if point != OFF and board[point] == -1 and point not in marked:
                marked.add(point)
                mark = "*"
            parts.append(point_name(point) + mark)
        tokens.append("/".join(parts) + (f"({count})" if count > 1 else ""))
    return " ".join(tokens)


def format_move(state: TakhtehState, move: TakhtehMove) -> str:
    """The canonical text of a legal `move` in `state`; IllegalMove if it is not legal."""
    return format_legs(state.board, state.resolve(move)[1])


def format_legs_plain(board: Board, legs: tuple[Leg, ...]) -> str:
    """Legs one die each as `.mat` files write them: `13/7*`, bar as 25, off as 0."""
    landed: set[int] = set()
    parts = []
    for src, dst in sorted(legs, reverse=True):
        mark = "*" if dst != OFF and board[dst] == -1 and dst not in landed else ""
        landed.add(dst)
        parts.append(f"{src}/{dst}{mark}")
    return " ".join(parts)
