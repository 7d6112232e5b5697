"""Trax positions as text and as SVG, labelled as the notation labels the next move."""

from __future__ import annotations

from referee.games import marks
from referee.games.trax.rules import (
    COLOUR_NAMES,
    PAIRS,
    SHIFT,
    SYMBOLS,
    TraxState,
    column_label,
)

WHITE_CHAR, BLACK_CHAR = "o", "#"
"""Track colours in the text board: white track as a hollow mark, black track as a solid one."""


def status(state: TraxState) -> str:
    outcome = state.outcome()
    if outcome is None:
        return f"{COLOUR_NAMES[state.seat].capitalize()} to move"
    if outcome.winner is None:
        return f"drawn ({outcome.detail})"
    return f"{COLOUR_NAMES[outcome.winner].capitalize()} wins by a {outcome.detail}"


def _ring(state: TraxState) -> tuple[int, int, int, int]:
    """Columns and rows of the spaces to draw: the tiles and the empty ring around them."""
    assert state.box is not None
    minx, maxx, miny, maxy = state.box
    return minx - 1, maxx + 1, miny - 1, maxy + 1


def render_text(state: TraxState) -> str:
    """The board with every track edge coloured (o white, # black) and each tile's symbol.

    Neighbouring tiles share an edge (and its colour), so a row of tiles takes two lines and
    a column two characters; `.` marks the empty spaces a tile may join.
    """
    if state.box is None:
        return "empty board: White plays first, @0+ or @0/\n" + status(state)
    left, right, top, bottom = _ring(state)
    width, height = right - left + 1, bottom - top + 1
    grid = [[" "] * (2 * width + 1) for _ in range(2 * height + 1)]
    tiles, codes = state.tiles, state.codes
    colour_chars = (BLACK_CHAR, WHITE_CHAR)
    for row in range(height):
        for col in range(width):
            key = (top + row) << SHIFT | (left + col)
            tile = tiles.get(key)
            line, column = 2 * row + 1, 2 * col + 1
            if tile is None:
                if key in codes:
                    grid[line][column] = "."
                continue
            grid[line][column] = SYMBOLS[tile]
            for d, (dl, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                grid[line + dl][column + dc] = colour_chars[tile >> d & 1]
    margin = len(str(height - 1)) + 1
    # Grid character j sits at margin + 2j; a space's centre is grid character 2col + 1.
    header = "".join(f"{column_label(col):<4}" for col in range(width))
    lines = [(" " * (margin + 2) + header).rstrip()]
    for index, chars in enumerate(grid):
        text = " ".join(chars)
        label = str(index // 2) if index % 2 else ""
        lines.append(f"{label:>{margin - 1}} {text}".rstrip())
    lines.append(f"{WHITE_CHAR} white track, {BLACK_CHAR} black track; {status(state)}")
    return "\n".join(lines)


_CELL = 40
_MARGIN = 24
_TILE_FILL = "#6b7f8e"
_TRACK = {0: "#ffffff", 1: "#111111"}
_MIDPOINTS = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


def _track_path(x: float, y: float, a: int, b: int) -> str:
    """The track joining edges a and b: a quarter circle for a curve, a line when straight."""
    (ax, ay), (bx, by) = _MIDPOINTS[a], _MIDPOINTS[b]
    centre = (x + _CELL / 2, y + _CELL / 2)
    return (
        f"M{x + ax * _CELL:g},{y + ay * _CELL:g} "
        f"Q{centre[0]:g},{centre[1]:g} {x + bx * _CELL:g},{y + by * _CELL:g}"
    )


def render_svg(state: TraxState, before: TraxState | None = None) -> str:
    """A standalone SVG of the position, with the notation's labels for the next move, and
    with `before` the tiles the last move added (the one placed and those it forced) framed."""
    if state.box is None:
        left = right = top = bottom = 0
    else:
        left, right, top, bottom = _ring(state)
    width, height = right - left + 1, bottom - top + 1
    pixel_width = width * _CELL + _MARGIN + 8
    pixel_height = height * _CELL + _MARGIN + 28
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixel_width}" '
        f'height="{pixel_height}" viewBox="0 0 {pixel_width} {pixel_height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{pixel_width}" height="{pixel_height}" fill="#f4ecd8"/>',
    ]
    for col in range(width):
        x = _MARGIN + col * _CELL + _CELL / 2
        parts.append(f'<text x="{x:g}" y="16" text-anchor="middle">{column_label(col)}</text>')
    for row in range(height):
        y = _MARGIN + row * _CELL + _CELL / 2 + 4
        parts.append(f'<text x="12" y="{y:g}" text-anchor="middle">{row}</text>')
    placed = []
    for row in range(height):
        for col in range(width):
            x, y = _MARGIN + col * _CELL, _MARGIN + row * _CELL
            key = (top + row) << SHIFT | (left + col)
            tile = state.tiles.get(key)
            if tile is None:
                if key in state.codes or state.box is None:
                    parts.append(
                        f'<rect x="{x + 2}" y="{y + 2}" width="{_CELL - 4}" '
                        f'height="{_CELL - 4}" fill="none" stroke="#9a8c6e" '
                        f'stroke-dasharray="4 3"/>'
                    )
                continue
            parts.append(
                f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                f'fill="{_TILE_FILL}" stroke="#3d4a54"/>'
            )
            if before is not None and key not in before.tiles:
                placed.append(marks.outlined(x + 1.5, y + 1.5, _CELL - 3, _CELL - 3))
            # Black first: on a straight tile the white track crosses over it.
            white, black = PAIRS[tile]
            for colour, (_, a, b) in ((1, black), (0, white)):
                path = _track_path(x, y, a, b)
                if colour == 0:
                    parts.append(
                        f'<path d="{path}" fill="none" stroke="#3d4a54" stroke-width="10"/>'
                    )
                parts.append(
                    f'<path d="{path}" fill="none" stroke="{_TRACK[colour]}" stroke-width="7"/>'
                )
    parts.extend(placed)  # on top of the tiles around them
    parts.append(
        f'<text x="{_MARGIN}" y="{pixel_height - 8}">{_escape(status(state))}</text></svg>'
    )
    return "".join(parts)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
