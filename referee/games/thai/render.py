"""Thai checkers positions as text and as SVG, seen from Black's side (square 1 top left)."""

from __future__ import annotations

from referee.games import marks
from referee.games.thai.geometry import BLACK, COLOURS, index_at, row_col
from referee.games.thai.rules import ThaiState

_PIECES = {(BLACK, False): "b", (BLACK, True): "B", (1, False): "w", (1, True): "W"}


def _piece(state: ThaiState, index: int) -> tuple[int, bool] | None:
    king = bool((state.kings >> index) & 1)
    if (state.black >> index) & 1:
        return BLACK, king
    if (state.white >> index) & 1:
        return 1, king
    return None


def _status(state: ThaiState) -> str:
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return f"drawn: {outcome.detail}"
        return f"{COLOURS[outcome.winner]} has won: {outcome.detail}"
    status = f"{COLOURS[state.turn]} to move"
    if state.quiet_plies:
        status += f" ({state.quiet_plies} plies without capture or man move)"
    return status


def render_text(state: ThaiState) -> str:
    """Eight rows with the square numbers at both ends; b/w men, B/W kings, . empty."""
    lines = ["     +-----------------+"]
    for row in range(8):
        cells = []
        for col in range(8):
            index = index_at(row, col)
            if index < 0:
                cells.append(" ")
                continue
            piece = _piece(state, index)
            cells.append("." if piece is None else _PIECES[piece])
        first, last = row * 4 + 1, row * 4 + 4
        lines.append(f"  {first:>2} | {' '.join(cells)} | {last}")
    lines.append("     +-----------------+")
    lines.append(_status(state))
    return "\n".join(lines)


_CELL = 48
_MARGIN = 16


_SIZE = 8 * _CELL + 2 * _MARGIN
_HEIGHT = _SIZE + 28


def _empty_board() -> str:
    """The board and its square numbers: the same in every picture, so drawn once."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_SIZE}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_SIZE} {_HEIGHT}" font-family="sans-serif">',
        f'<rect width="{_SIZE}" height="{_HEIGHT}" fill="#f4ecd8"/>',
    ]
    for row in range(8):
        for col in range(8):
            x, y = _MARGIN + col * _CELL, _MARGIN + row * _CELL
            index = index_at(row, col)
            fill = "#7a5230" if index >= 0 else "#ead9b5"
            parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}"/>')
            if index >= 0:
                label = f'<text x="{x + 3}" y="{y + 11}" font-size="9" fill="#f4ecd8">'
                parts.append(f"{label}{index + 1}</text>")
    return "".join(parts)


def _centre(index: int) -> tuple[float, float]:
    row, col = row_col(index)
    return _MARGIN + col * _CELL + _CELL / 2, _MARGIN + row * _CELL + _CELL / 2


def _piece_svg(index: int, seat: int, king: bool) -> str:
    cx, cy = _centre(index)
    fill, stroke = ("#1b1b1b", "#d8d8d8") if seat == BLACK else ("#fbfbf6", "#333333")
    svg = (
        f'<circle cx="{cx}" cy="{cy}" r="{_CELL * 0.38}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2"/>'
    )
    if king:
        svg += (
            f'<circle cx="{cx}" cy="{cy}" r="{_CELL * 0.2}" fill="none" '
            f'stroke="#c9a227" stroke-width="3"/>'
        )
    return svg


_EMPTY_BOARD = _empty_board()
_PIECE_SVG = {
    (index, seat, king): _piece_svg(index, seat, king)
    for index in range(32)
    for seat in (BLACK, 1)
    for king in (False, True)
}
"""Every piece on every square, drawn once: a report draws every position of every game."""


def render_svg(state: ThaiState, before: ThaiState | None = None) -> str:
    """The position; with `before`, the piece that moved ringed where it stands, and dashed
    where it started and where it captured."""
    parts = [_EMPTY_BOARD]
    for index in range(32):
        piece = _piece(state, index)
        if piece is not None:
            parts.append(_PIECE_SVG[(index, *piece)])
    if before is not None:
        for index in range(32):
            now, then = _piece(state, index), _piece(before, index)
            if now != then:
                mark = marks.left if now is None else marks.arrived
                parts.append(mark(*_centre(index), _CELL * 0.38))
    status = f'<text x="{_MARGIN}" y="{_SIZE + 16}" font-size="14" fill="#333333">'
    parts.append(f"{status}{_status(state)}</text>")
    parts.append("</svg>")
    return "".join(parts)
