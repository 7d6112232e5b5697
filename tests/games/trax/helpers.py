"""A slow, independent reading of the Trax rules, to hold the engine against, and helpers.

It keeps a board as {(x, y): edge colours (N, E, S, W)} and does everything by scanning it:
forced play space by space until nothing changes, tracks by walking them tile to tile.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.games.trax import GAME
from referee.games.trax.rules import COORD_MASK, SHIFT, TraxMove, TraxState

DRAWN_8X8 = (
    "@0/ A2/ A3/ @3\\ B4+ B5/ A1/ C2\\ C0/ @4\\ E3+ @3/ F4+ @3/ H2/ F0+ F7+ A3/ A6\\ A7\\ "
    "F8\\ C6/ G6\\ H4\\ D2+ G8+ C2\\ G2+ D7/ A8\\ D1+ H2/ B1\\ A1\\ H1+ H8+"
)
"""A random 8x8 game in which the player to move ends up with no legal move."""

Board = dict[tuple[int, int], tuple[str, str, str, str]]
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""N, E, S, W."""
TILE_EDGES = [
    ("w", "b", "w", "b"),
    ("b", "w", "b", "w"),
    ("w", "b", "b", "w"),
    ("b", "w", "w", "b"),
    ("w", "w", "b", "b"),
    ("b", "b", "w", "w"),
]
"""The six tiles by their edge colours: two straight, four curved."""


def board_of(state: TraxState) -> Board:
    board: Board = {}
    for key, tile in state.tiles.items():
        board[(key & COORD_MASK, key >> SHIFT)] = tuple(
            "w" if tile >> d & 1 else "b" for d in range(4)
        )  # type: ignore[assignment]
    return board


def entering(board: Board, space: tuple[int, int]) -> list[str | None]:
    """The colour entering each edge of an empty space from its neighbour, None if none."""
    x, y = space
    colours: list[str | None] = []
    for d, (dx, dy) in enumerate(STEPS):
        neighbour = board.get((x + dx, y + dy))
        colours.append(None if neighbour is None else neighbour[(d + 2) % 4])
    return colours


def frontier(board: Board) -> set[tuple[int, int]]:
    return {
        (x + dx, y + dy) for (x, y) in board for dx, dy in STEPS if (x + dx, y + dy) not in board
    }


def span(board: Board) -> tuple[int, int]:
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def naive_turn(
    board: Board, space: tuple[int, int], edges: tuple[str, str, str, str], limit: int
) -> Board | None:
    """The board after a turn, forced play included; None if the turn is illegal."""
    board = dict(board)
    board[space] = edges
    while True:
        if limit and max(span(board)) > limit:
            return None
        forced = None
        for empty in sorted(frontier(board)):
            colours = entering(board, empty)
            for colour in "wb":
                if colours.count(colour) >= 3:
                    return None
                if colours.count(colour) == 2 and forced is None:
                    other = "b" if colour == "w" else "w"
                    forced = (empty, tuple(colour if c == colour else other for c in colours))
        if forced is None:
            return board
        board[forced[0]] = forced[1]  # type: ignore[assignment]


def naive_moves(state: TraxState) -> set[tuple[tuple[int, int], tuple[str, str, str, str]]]:
    """Every legal (space, tile) of a started game, by trying every tile on every space."""
    board = board_of(state)
    moves = set()
    for space in frontier(board):
        colours = entering(board, space)
        for edges in TILE_EDGES:
            fits = all(c is None or c == e for c, e in zip(colours, edges, strict=True))
            if fits and naive_turn(board, space, edges, state.limit) is not None:  # type: ignore[arg-type]
                moves.add((space, edges))
    return moves


def absolute(state: TraxState, move: TraxMove) -> tuple[tuple[int, int], tuple[str, ...]]:
    """A move as (space, edge colours) in the engine's fixed coordinates."""
    key = state.space_of(move.col, move.row)
    assert key is not None
    edges = tuple("w" if move.tile >> d & 1 else "b" for d in range(4))
    return (key & COORD_MASK, key >> SHIFT), edges


def tracks(board: Board) -> list[tuple[str, bool, list[tuple[tuple[int, int], int]]]]:
    """Every track: its colour, whether it is a loop, and its open ends (space, edge)."""
    seen: set[tuple[tuple[int, int], str]] = set()
    found = []
    for start, edges in board.items():
        for colour in "wb":
            if (start, colour) in seen:
                continue
            seen.add((start, colour))
            first, second = (d for d in range(4) if edges[d] == colour)
            ends = []
            loop = False
            for leave in (first, second):
                place, edge = start, leave
                while True:
                    dx, dy = STEPS[edge]
                    following = (place[0] + dx, place[1] + dy)
                    if following not in board:
                        ends.append((place, edge))
                        break
                    if following == start:
                        loop = True
                        break
                    seen.add((following, colour))
                    enter = (edge + 2) % 4
                    tile = board[following]
                    edge = next(d for d in range(4) if d != enter and tile[d] == colour)
                    place = following
                if loop:
                    break
            found.append((colour, loop, ends))
    return found


def naive_formed(board: Board, lines: bool) -> dict[str, str | None]:
    """What each colour has formed on the whole board: "loop", "line" or None."""
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    result: dict[str, str | None] = {"w": None, "b": None}
    for colour, loop, ends in tracks(board):
        if loop:
            result[colour] = "loop"
        elif lines and result[colour] is None and len(ends) == 2:
            (p, e), (q, f) = ends
            across = {e, f} == {1, 3} and right - left >= 7
            down = {e, f} == {0, 2} and bottom - top >= 7
            west, east = (p, q) if e == 3 else (q, p)
            north, south = (p, q) if e == 0 else (q, p)
            if (across and west[0] == left and east[0] == right) or (
                down and north[1] == top and south[1] == bottom
            ):
                result[colour] = "line"
    return result


def random_state(variant: str, choices: Sequence[int]) -> TraxState:
    """The position after playing choice % (number of legal moves) for each choice."""
    state = GAME.initial_state(GAME.ruleset(variant))
    for choice in choices:
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state = state.play(moves[choice % len(moves)])
    return state


def random_game(variant: str, seed: int, cap: int = 400) -> list[TraxState]:
    """Every position of a game of random moves."""
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.ruleset(variant))
    states = [state]
    while not state.is_terminal() and len(states) <= cap:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def position(text: str, variant: str = "standard") -> TraxState:
    return GAME.parse_position(GAME.ruleset(variant), text)
