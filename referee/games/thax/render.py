"""THAX boards as text and as SVG."""

from __future__ import annotations

import functools

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


_WIDTH, _HEIGHT = 70 + 15 * _CELL + 4 * 6 + 10, 2 * _CELL + 40  # label, cells, gaps, margin


@functools.cache
def _side_svg(seat: int, side: tuple[int, ...], to_move: bool) -> str:
    """One player's row; cached, as a side has only 720 states (a report draws thousands)."""
    y = 10 + seat * (_CELL + 10)
    marker = "\u25b6 " if to_move else ""
    parts = [f'<text x="4" y="{y + _CELL / 2 + 4}">{marker}seat {seat}</text>']
    x = 70
    for n, covered in zip(NUMBERS, side, strict=True):
        for i in range(n):
            parts.append(
                f'<rect x="{x}" y="{y}" width="{_CELL - 2}" height="{_CELL - 2}" '
                f'fill="#fffaf0" stroke="#6b4f2a"/>'
            )
            parts.append(f'<text x="{x + 9}" y="{y + 18}" fill="#6b4f2a">{n}</text>')
            if i < covered:
                fill = "#1d3557" if seat == 0 else "#c1121f"
                parts.append(
                    f'<circle cx="{x + _CELL / 2 - 1}" cy="{y + _CELL / 2 - 1}" '
                    f'r="{_CELL / 2 - 4}" fill="{fill}" opacity="0.85"/>'
                )
            x += _CELL
        x += 6
    return "".join(parts)


def render_svg(state: ThaxState) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{_WIDTH}" height="{_HEIGHT}" fill="#f4ecd8"/>',
    ]
    for seat, side in enumerate(state.sides):
        parts.append(_side_svg(seat, side, state.seat == seat and state.winner is None))
    if state.roll is not None:
        parts.append(f'<text x="4" y="{_HEIGHT - 6}">roll {state.roll[0]}-{state.roll[1]}</text>')
    parts.append("</svg>")
    return "".join(parts)
