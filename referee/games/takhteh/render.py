"""Takhteh boards as text (in the style of GNU Backgammon's ASCII board) and as SVG.

Both show the board from the player on roll (seat 0 before the opening roll): that player's
points 1..24, home board at the bottom right. Seat 0's checkers are X (dark), seat 1's O.
"""

from __future__ import annotations

import functools

from referee.games import marks
from referee.games.takhteh import position_id
from referee.games.takhteh.rules import BAR, CHECKERS, Board, TakhtehState, flip

_ROWS = 5
_SYMBOLS = ("X", "O")


def _viewer(state: TakhtehState) -> int:
    return 0 if state.to_move is None else state.to_move


def _status(state: TakhtehState) -> str:
    if state.winner is not None:
        kind = "a gammon, 2 points" if state.points == 2 else "1 point"
        return f"seat {state.winner} ({_SYMBOLS[state.winner]}) has won ({kind})"
    if state.to_move is None:
        return "opening roll"
    who = f"seat {state.to_move} ({_SYMBOLS[state.to_move]})"
    if state.roll is None:
        return f"{who} to roll"
    return f"{who} to move, dice {state.roll[0]}-{state.roll[1]}"


def _pips(board: Board) -> tuple[int, int]:
    """Pip counts of the player the board is seen from and of the opponent."""
    mine = sum(p * n for p, n in enumerate(board) if n > 0)
    theirs = sum((25 - p) * -n for p, n in enumerate(board) if n < 0)
    return mine, theirs


def _cell(count: int, row: int, symbols: tuple[str, str]) -> str:
    """Row `row` (0 at the board's edge) of a point holding `count` (negative: opponent)."""
    n = abs(count)
    if n <= row:
        return "   "
    if row == _ROWS - 1 and n > _ROWS:
        return f"{n:^3}"
    return f" {symbols[0] if count > 0 else symbols[1]} "


def render_text(state: TakhtehState) -> str:
    viewer = _viewer(state)
    board = state.board
    symbols = (_SYMBOLS[viewer], _SYMBOLS[1 - viewer])
    top_left, top_right = range(13, 19), range(19, 25)
    bottom_left, bottom_right = range(12, 6, -1), range(6, 0, -1)

    def border(left: range, right: range) -> str:
        labels = "".join(f"{p:-^3}" for p in left)
        return f" +{labels}+---+{''.join(f'{p:-^3}' for p in right)}+"

    def row(left: range, right: range, r: int, bar: str) -> str:
        cells_left = "".join(_cell(board[p], r, symbols) for p in left)
        cells_right = "".join(_cell(board[p], r, symbols) for p in right)
        return f" |{cells_left}|{bar}|{cells_right}|"

    def bar_cell(count: int, r: int, symbol: str) -> str:
        if count <= r:
            return "   "
        return f"{count:^3}" if r == _ROWS - 1 and count > _ROWS else f" {symbol} "

    lines = [f" {_status(state)}    Position ID: {position_id.encode(board)}"]
    lines.append(border(top_left, top_right))
    # The opponent's bar checkers sit on the top half, the viewer's on the bottom half.
    for r in range(_ROWS):
        lines.append(row(top_left, top_right, r, bar_cell(-board[0], r, symbols[1])))
    lines.append(" |" + " " * 18 + "|BAR|" + " " * 18 + "|")
    for r in range(_ROWS - 1, -1, -1):
        lines.append(row(bottom_left, bottom_right, r, bar_cell(board[BAR], r, symbols[0])))
    lines.append(border(bottom_left, bottom_right))
    mine_pips, their_pips = _pips(board)
    mine_on = sum(n for n in board if n > 0)
    theirs_on = -sum(n for n in board if n < 0)
    for who, symbol, pips, on in (
        (viewer, symbols[0], mine_pips, mine_on),
        (1 - viewer, symbols[1], their_pips, theirs_on),
    ):
        lines.append(f" {symbol} seat {who}: pips {pips}, off {CHECKERS - on}")
    return "\n".join(lines)


_W, _H = 560, 400
_MARGIN = 20
_BAR_W = 40
_POINT_W = (_W - 2 * _MARGIN - _BAR_W - 50) / 12
_R = _POINT_W / 2 - 2
_COLOURS = ("#222222", "#f2f2f2")


def _point_x(point: int) -> tuple[float, bool]:
    """Centre x of a point and whether it is on the top half."""
    if point >= 13:
        index, top = point - 13, True
    else:
        index, top = 12 - point, False
    x = _MARGIN + index * _POINT_W + _POINT_W / 2
    if index >= 6:
        x += _BAR_W
    return x, top


_BOARD_RIGHT = _W - 50
_TOP, _BOTTOM = _MARGIN + 20, _H - _MARGIN - 20


@functools.cache
def _empty_board() -> str:
    """The board without checkers: the same in every picture, so drawn once (a report draws
    every position of every game)."""
    top, bottom = _TOP, _BOTTOM
    height = (bottom - top) * 0.42
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" '
        f'viewBox="0 0 {_W} {_H}" font-family="sans-serif" font-size="11">',
        f'<rect width="{_W}" height="{_H}" fill="#5b3a1e"/>',
        f'<rect x="{_MARGIN}" y="{top}" width="{_BOARD_RIGHT - _MARGIN}" '
        f'height="{bottom - top}" fill="#e8d3a2"/>',
        f'<rect x="{_MARGIN + 6 * _POINT_W}" y="{top}" width="{_BAR_W}" '
        f'height="{bottom - top}" fill="#7a5230"/>',
    ]
    for point in range(1, 25):
        x, on_top = _point_x(point)
        fill = "#a0522d" if point % 2 else "#2f4f4f"
        left, right = x - _POINT_W / 2, x + _POINT_W / 2
        if on_top:
            shape = f"{left},{top} {right},{top} {x},{top + height}"
            label_y = top - 6
        else:
            shape = f"{left},{bottom} {right},{bottom} {x},{bottom - height}"
            label_y = bottom + 14
        parts.append(f'<polygon points="{shape}" fill="{fill}"/>')
        parts.append(
            f'<text x="{x}" y="{label_y}" text-anchor="middle" fill="#f4ecd8">{point}</text>'
        )
    return "".join(parts)


def _piles(board: Board) -> list[tuple[float, float, bool, int, int]]:
    """Every pile of checkers as it is drawn: (x, edge, from the top, count, most drawn), the
    viewer's checkers positive, the opponent's negative."""
    piles: list[tuple[float, float, bool, int, int]] = []
    for point in range(1, 25):
        x, on_top = _point_x(point)
        piles.append((x, _TOP if on_top else _BOTTOM, on_top, board[point], _ROWS))
    bar_x = _MARGIN + 6 * _POINT_W + _BAR_W / 2
    middle = (_TOP + _BOTTOM) / 2
    piles.append((bar_x, middle - _R - 4, False, board[0], 3))
    piles.append((bar_x, middle + _R + 4, True, board[BAR], 3))
    return piles


def _checker_y(edge: float, from_top: bool, i: int) -> float:
    offset = _R + 1 + i * (2 * _R + 1)
    return edge + offset if from_top else edge - offset


def _marks(before: TakhtehState, state: TakhtehState) -> str:
    """The checkers that arrived on a point or the bar (ringed), and where checkers left or
    were hit (dashed), comparing each pile with the same pile before the move."""
    was = before.board if before.to_move == _viewer(state) else flip(before.board)
    parts: list[str] = []
    for (x, edge, from_top, count, most), (*_, old, _most) in zip(
        _piles(state.board), _piles(was), strict=True
    ):
        for sign in (1, -1):
            now, then = max(sign * count, 0), max(sign * old, 0)
            low, high = min(now, then, most), min(max(now, then), most)
            if now != then and low == high:
                low -= 1  # a crowded pile: its last checker drawn, the one with the count
            mark = marks.arrived if now > then else marks.left
            parts.extend(mark(x, _checker_y(edge, from_top, i), _R) for i in range(low, high))
    return "".join(parts)


def _dice(state: TakhtehState, before: TakhtehState | None) -> str:
    """The dice to play, or else those the last move played, on the right half of the board."""
    x = _MARGIN + 9 * _POINT_W + _BAR_W - 26
    y = (_TOP + _BOTTOM) / 2 - 11
    if state.roll is not None:
        return marks.dice(x, y, state.roll)
    if before is not None and before.roll is not None:
        return marks.dice(x, y, before.roll, label="played")
    return ""


def render_svg(state: TakhtehState, before: TakhtehState | None = None) -> str:
    viewer = _viewer(state)
    board = state.board
    colours = (_COLOURS[viewer], _COLOURS[1 - viewer])
    parts = [_empty_board()]
    for x, edge, from_top, count, most in _piles(board):
        if count:
            colour = colours[0] if count > 0 else colours[1]
            parts.append(_stack(x, edge, from_top, abs(count), colour, most))
    mine_on = sum(n for n in board if n > 0)
    theirs_on = -sum(n for n in board if n < 0)
    off_x = _BOARD_RIGHT + 25
    for label, seat, y in (
        (f"off {CHECKERS - theirs_on}", 1 - viewer, _TOP + 12),
        (f"off {CHECKERS - mine_on}", viewer, _BOTTOM - 4),
    ):
        parts.append(
            f'<text x="{off_x}" y="{y}" text-anchor="middle" fill="#f4ecd8">'
            f"{_SYMBOLS[seat]} {label}</text>"
        )
    if before is not None:
        parts.append(_marks(before, state))
    parts.append(_dice(state, before))
    parts.append(
        f'<text x="{_MARGIN}" y="{_H - 8}" fill="#f4ecd8">{_status(state)} \u00b7 '
        f"Position ID {position_id.encode(board)}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


@functools.cache
def _stack(
    x: float, edge: float, from_top: bool, count: int, colour: str, most: int = _ROWS
) -> str:
    """Checkers piled from `edge` towards the middle; a number on the last when crowded.
    Cached: a few hundred piles make every picture."""
    parts = []
    stroke = "#888888" if colour == _COLOURS[0] else "#333333"
    text = _COLOURS[1] if colour == _COLOURS[0] else _COLOURS[0]
    shown = min(count, most)
    for i in range(shown):
        offset = _R + 1 + i * (2 * _R + 1)
        y = edge + offset if from_top else edge - offset
        parts.append(f'<circle cx="{x}" cy="{y}" r="{_R}" fill="{colour}" stroke="{stroke}"/>')
        if i == shown - 1 and count > most:
            parts.append(
                f'<text x="{x}" y="{y + 4}" text-anchor="middle" fill="{text}">{count}</text>'
            )
    return "".join(parts)
