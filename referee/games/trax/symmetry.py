"""Trax positions as shapes: where the tiles lie relative to each other, and the same up to
rotation and reflection of the board: what makes a position the same as another, for an
opening suite and for searching archives."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from referee.games.trax.rules import TraxState, coords

Shape = tuple[tuple[int, int, int], ...]
"""(x, y, tile) of every tile, sorted, the leftmost column and top row at 0."""


def _rotate_tile(tile: int) -> int:
    """A quarter turn clockwise: the track on edge N goes to E, E to S, S to W, W to N."""
    return (tile << 1 | tile >> 3) & 15


def _mirror_tile(tile: int) -> int:
    """Left and right swapped: the track on edge E goes to W and back; N and S stay."""
    return tile & 0b0101 | (tile & 0b0010) << 2 | (tile & 0b1000) >> 2


def _normal(cells: list[tuple[int, int, int]]) -> Shape:
    if not cells:
        return ()
    low_x = min(x for x, _, _ in cells)
    low_y = min(y for _, y, _ in cells)
    return tuple(sorted((x - low_x, y - low_y, tile) for x, y, tile in cells))


def shape(state: TraxState) -> Shape:
    """The tiles of a position, wherever they lie in the engine's coordinates."""
    return _normal([(*coords(key), tile) for key, tile in state.tiles.items()])


def transforms(cells: Shape) -> list[Shape]:
    """The shape under each of the eight rotations and reflections of the board."""
    shapes = []
    current = list(cells)
    for _ in range(4):
        shapes.append(_normal(current))
        shapes.append(_normal([(-x, y, _mirror_tile(tile)) for x, y, tile in current]))
        # y grows downwards (north is y - 1), so a quarter turn clockwise maps (x, y) to (-y, x).
        current = [(-y, x, _rotate_tile(tile)) for x, y, tile in current]
    return shapes


def symmetric_shape(state: TraxState) -> Shape:
    """One shape for a position and all its rotations and reflections (the least of them)."""
    return min(transforms(shape(state)))


def position_key(state: TraxState, symmetric: bool = False) -> Hashable:
    """The seat to move, the number of tiles and their shape (up to rotation and reflection
    with `symmetric`). The count comes first so that a position with another number of tiles
    is told apart without working out its shape."""
    return state.seat, len(state.tiles), _Lazy(symmetric_shape if symmetric else shape, state)


class _Lazy:
    """A shape computed only when compared with another (equal seats and tile counts), or
    hashed."""

    __slots__ = ("make", "state", "value")

    def __init__(self, make: Callable[[TraxState], Hashable], state: TraxState) -> None:
        self.make, self.state = make, state
        self.value: Hashable | None = None

    def get(self) -> Hashable:
        if self.value is None:
            self.value = self.make(self.state)
        return self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Lazy) and self.get() == other.get()

    def __hash__(self) -> int:
        return hash(self.get())
