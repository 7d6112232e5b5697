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

from referee.escaping import quoted
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
            raise NotationError(
                f"{quoted(token)}: {quoted(text)} is not a point (1..24, bar or off)"
            )
    return point


def _check_prefix(dice: str, roll: tuple[int, int]) -> None:
    if sorted(map(int, dice)) != sorted(roll):
        raise NotationError(
            f"the move is written for the roll {dice}, but the dice are {roll[0]}{roll[1]}"
        )


@functools.lru_cache(maxsize=16384)
def _read(text: str) -> tuple[tuple[Leg, ...], tuple[int, ...], str]:
    """The segments (highest first), the points marked as hits and the roll prefix ("" when
    there is none) of a moves text; the same texts come back again and again in a file of
    games, so each is read once. (A file of random games still brings a new text every
    other move or so: 8,192 texts held too few, and this runs for every one of them.)"""
    body = text
    dice = ""
    if ":" in text:
        head, _, body = text.partition(":")
        dice = head.strip()
        if len(dice) != 2 or not all("1" <= d <= "6" for d in dice):
            raise NotationError(f"{quoted(head)} is not a roll (write it as two digits, e.g. 31:)")
    if "," in body:
        body = body.replace(",", " ")
    # Each token's segments come highest first (`_read_token`), and most texts write the
    # tokens highest first too (the canonical form does): then the segments joined are in
    # order already, and only texts that are not need a sort.
    segments: tuple[Leg, ...] = ()
    marked: tuple[int, ...] = ()
    ordered = True
    for token in body.split():
        token_segments, token_marked = _read_token(token)
        if segments and token_segments and segments[-1] < token_segments[0]:
            ordered = False
        segments += token_segments
        if token_marked:
            marked = tuple(sorted({*marked, *token_marked})) if marked else token_marked
    if not ordered:
        segments = tuple(sorted(segments, reverse=True))
    return segments, marked, dice


@functools.lru_cache(maxsize=4096)
def _read_token(token: str) -> tuple[tuple[Leg, ...], tuple[int, ...]]:
    """The segments (highest first) and the points marked as hits (in order, each once) of
    one written move (`13/7*`, `24/18/13`, `6/2(2)`)."""
    count = 1
    steps = token
    if token[-1] == ")":
        steps, paren, number = token[:-1].partition("(")
        if not paren or number not in ("1", "2", "3", "4"):
            raise NotationError(f"{quoted(token)}: a count is written (1) to (4)")
        count = int(number)
    parts = steps.split("/")
    if len(parts) < 2:
        raise NotationError(f"{quoted(token)} is not a move (write from/to, e.g. 13/7)")
    points: list[int] = []
    marked: list[int] = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        if part[-1:] == "*":
            if index == 0:
                raise NotationError(f"{quoted(token)}: a hit is marked where a checker lands")
            point = _point(part[:-1], token)
            marked.append(point)
        else:
            point = _point(part, token)
        if index == 0:
            if point == OFF:
                raise NotationError(f"{quoted(token)}: a move cannot start from off")
        elif point == BAR:
            raise NotationError(f"{quoted(token)}: a move cannot end on the bar")
        elif point == OFF and index < last:
            raise NotationError(f"{quoted(token)}: nothing moves on from off")
        points.append(point)
    segments = sorted(itertools.pairwise(points), reverse=True) * count
    if count > 1:
        segments.sort(reverse=True)
    return tuple(segments), tuple(sorted(set(marked))) if marked else ()


def parse_move(state: TakhtehState, text: str) -> TakhtehMove:
    """The play `text` denotes in `state` (its legality is checked by `state.play`)."""
    return read_play(state.board, state.roll, text)


def read_play(board: Board, roll: tuple[int, int] | None, text: str) -> TakhtehMove:
    """The play `text` denotes on `board` with `roll` (None before the roll): NotationError
    when it is no play or its roll prefix (`31:`) is not `roll`, IllegalMove when a point it
    marks as a hit holds no opposing blot; whether the play is legal is `state.play`'s."""
    segments, marked, dice = _read(text)
    if dice and roll is not None:
        _check_prefix(dice, roll)
    if marked:
        _check_marks(board, marked)
    return segments


def read_move(state: TakhtehState, text: str) -> tuple[TakhtehMove, TakhtehState]:
    """The play `text` denotes in `state` and the state it leads to."""
    segments = read_play(state.board, state.roll, text)
    return segments, state.play(segments)


def _check_marks(board: Board, marked: tuple[int, ...]) -> None:
    """IllegalMove when a point marked as a hit (`13/7*`) holds no opposing blot."""
    for point in marked:
        if not 0 < point < BAR or board[point] != -1:
            raise IllegalMove(
                f"{point_name(point)}* marks a hit, but there is no opposing blot on "
                f"{point_name(point)} to hit",
                rule="takhteh.hit-mark",
            )


# The names of the points 0 (off) to 25 (the bar), as `point_name` writes them.
_NAMES = tuple(point_name(point) for point in range(BAR + 1))


def format_legs(board: Board, legs: tuple[Leg, ...]) -> str:
    """The canonical text of a play given as legs of one die each, on `board` before it."""
    if len(legs) == 2:
        return _format_two(board, *legs)
    return _format_chains(board, legs)


def _format_chains(board: Board, legs: tuple[Leg, ...]) -> str:
    """`format_legs` of any number of legs: each checker's legs joined into a chain."""
    chains: list[list[int]] = []
    for src, dst in sorted(legs, reverse=True):
        for chain in chains:
            if chain[-1] == src:
                # A checker that hit in the home board stops there, so no chain goes through
                # such a point; a hit elsewhere stays written as a point on the way
                # (24/18*/13), any other point on the way is left out.
                if board[src] != -1:
                    chain[-1] = dst
                    break
                if src > HOME:
                    chain.append(dst)
                    break
        else:
            chains.append([src, dst])
    names = _NAMES
    tokens: list[str] = []
    marked = 0  # a bit for each point already marked as hit: a blot is hit once
    # Chains keep the order of their first legs; a repeated chain is counted where it first
    # comes (as GNU Backgammon writes plays).
    counts: dict[tuple[int, ...], int] = {}
    for chain in chains:
        key = tuple(chain)
        counts[key] = counts.get(key, 0) + 1
    for key, count in counts.items():
        text = names[key[0]]
        for point in key[1:]:
            text += "/" + names[point]
            if point != OFF and board[point] == -1 and not marked >> point & 1:
                marked |= 1 << point
                text += "*"
        tokens.append(f"{text}({count})" if count > 1 else text)
    return " ".join(tokens)


def _format_two(board: Board, first: Leg, second: Leg) -> str:
    """`_format_chains` of a play of two legs (most plays: the dice differ) in fewer steps: the
    same chains, counts and marks (the tests hold the two equal)."""
    if first < second:
        first, second = second, first
    (a, b), (c, d) = first, second
    names = _NAMES
    hit_b = b != OFF and board[b] == -1
    if b == c and not (hit_b and b <= HOME):
        # One checker moves twice: the point on the way is written only for a hit.
        on_the_way = "/" + names[b] + "*/" if hit_b else "/"
        text = names[a] + on_the_way + names[d]
        return text + "*" if d != OFF and board[d] == -1 else text
    text = names[a] + "/" + names[b] + "*" if hit_b else names[a] + "/" + names[b]
    if first == second:
        return text + "(2)"
    # A blot is hit once: a second checker landing on it is not marked again.
    if d != OFF and board[d] == -1 and d != b:
        return text + " " + names[c] + "/" + names[d] + "*"
    return text + " " + names[c] + "/" + names[d]


def format_move(state: TakhtehState, move: TakhtehMove) -> str:
    """The canonical text of a legal `move` in `state`; IllegalMove if it is not legal."""
    return format_legs(state.board, state.legs(move))


def format_legs_plain(board: Board, legs: tuple[Leg, ...]) -> str:
    """Legs one die each as `.mat` files write them: `13/7*`, bar as 25, off as 0."""
    landed: set[int] = set()
    parts = []
    for src, dst in sorted(legs, reverse=True):
        mark = "*" if dst != OFF and board[dst] == -1 and dst not in landed else ""
        landed.add(dst)
        parts.append(f"{src}/{dst}{mark}")
    return " ".join(parts)
