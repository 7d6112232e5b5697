"""THAX boards as text and as SVG."""

from __future__ import annotations

import functools

from referee.games import marks
from referee.games.thax.rules import NUMBERS, ThaxState


def _side_text(covered: tuple[int, ...]) -> str:
    groups = ("x" * c + "." * (n - c) for n, c in zip(NUMBERS, covered, strict=True))
    return " ".join(f"{n}:{g}" for n, g in zip(NUMBERS, groups, strict=True))


def render_text(state: ThaxState) -> str:
    lines = [
        f"seat {seat}: {_side_text(side)}  ({sum(side)}/15)"
        for seat, side in enumerate(state.sides)
    ]
    if state.winner is not None:
        lines.append(f"seat {state.winner} has won")
    elif state.seat is None:
        lines.append("opening roll")
    elif state.roll is None:
        lines.append(f"seat {state.seat} to roll")
    else:
        lines.append(f"seat {state.seat} to move, roll {state.roll[0]}-{state.roll[1]}")
    return "\n".join(lines)


_CELL = 28
_GAP = 6
_LEFT = 70
_COLOURS = ("#1d3557", "#c1121f")
_WIDTH = _LEFT + 15 * _CELL + 4 * _GAP + 10  # label, cells, gaps, margin
_DICE_Y = 2 * _CELL + 30
_HEIGHT = _DICE_Y + 30


def _row_y(seat: int) -> int:
    return 10 + seat * (_CELL + 10)


def _cell_x(number: int, i: int) -> int:
    """Left edge of the i-th space numbered `number` in a row."""
    index = NUMBERS.index(number)
    return _LEFT + sum(NUMBERS[:index]) * _CELL + index * _GAP + i * _CELL


@functools.cache
def _side_svg(seat: int, side: tuple[int, ...], to_move: bool) -> str:
    """One player's row; cached, as a side has only 720 states (a report draws thousands).

    A covered space is filled with its player's colour and keeps its number in white, so that
    covered and open spaces differ at a glance."""
    y = _row_y(seat)
    marker = "\u25b6 " if to_move else ""
    parts = [f'<text x="4" y="{y + _CELL / 2 + 4}">{marker}seat {seat}</text>']
    for n, covered in zip(NUMBERS, side, strict=True):
        for i in range(n):
            x = _cell_x(n, i)
            fill, ink = (_COLOURS[seat], "#ffffff") if i < covered else ("#fffaf0", "#6b4f2a")
            parts.append(
                f'<rect x="{x}" y="{y}" width="{_CELL - 2}" height="{_CELL - 2}" '
                f'fill="{fill}" stroke="#6b4f2a"/>'
            )
            weight = ' font-weight="bold"' if i < covered else ""
            parts.append(f'<text x="{x + 9}" y="{y + 18}" fill="{ink}"{weight}>{n}</text>')
    return "".join(parts)


def _marks(before: ThaxState, after: ThaxState) -> str:
    """The spaces the last move covered (framed) and uncovered (dashed), on both sides."""
    parts = []
    for seat in (0, 1):
        y = _row_y(seat) - 2
        for n, was, now in zip(NUMBERS, before.sides[seat], after.sides[seat], strict=True):
            for i in range(min(was, now), max(was, now)):
                mark = marks.outlined if now > was else marks.cleared
                parts.append(mark(_cell_x(n, i) - 2, y, _CELL + 2, _CELL + 2))
    return "".join(parts)


def render_svg(state: ThaxState, before: ThaxState | None = None) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{_WIDTH}" height="{_HEIGHT}" fill="#f4ecd8"/>',
    ]
    for seat, side in enumerate(state.sides):
        parts.append(_side_svg(seat, side, state.seat == seat and state.winner is None))
    if before is not None:
        parts.append(_marks(before, state))
    if state.roll is not None:
        parts.append(marks.dice(_LEFT, _DICE_Y, state.roll, label=f"seat {state.seat} to play"))
    elif before is not None and before.roll is not None:
        parts.append(marks.dice(_LEFT, _DICE_Y, before.roll, label=f"seat {before.seat} rolled"))
    parts.append("</svg>")
    return "".join(parts)
