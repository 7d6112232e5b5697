"""Trax positions as shapes: where the tiles lie relative to each other, and the same up to
rotation and reflection of the board (for searching archives for a position)."""

from __future__ import annotations

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
