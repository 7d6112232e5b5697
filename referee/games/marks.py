"""What every game's picture marks the same way: the last move (pieces placed or arrived
outlined, pieces taken or gone drawn as dashed ghosts) and the dice.

The marks carry a class (`last-move`, `last-move-from`, `dice`) so that a page can find them.
"""

from __future__ import annotations

MARK = "#ff7a00"
"""An orange that stands out on every board's colours, light and dark squares alike."""


def arrived(cx: float, cy: float, r: float) -> str:
    """A ring around a piece placed or moved here by the last move."""
    return (
        f'<circle class="last-move" cx="{cx}" cy="{cy}" r="{r + 2}" fill="none" '
        f'stroke="{MARK}" stroke-width="3"/>'
    )


def left(cx: float, cy: float, r: float) -> str:
    """A dashed ghost where a piece stood before the last move (moved away or taken)."""
    return (
        f'<circle class="last-move-from" cx="{cx}" cy="{cy}" r="{r}" fill="none" '
        f'stroke="{MARK}" stroke-width="2.5" stroke-dasharray="4 3"/>'
    )


def outlined(x: float, y: float, width: float, height: float) -> str:
    """A frame around a square tile placed by the last move."""
    return (
        f'<rect class="last-move" x="{x}" y="{y}" width="{width}" height="{height}" '
        f'fill="none" stroke="{MARK}" stroke-width="3"/>'
    )


def cleared(x: float, y: float, width: float, height: float) -> str:
    """A dashed frame around a square the last move emptied."""
    return (
        f'<rect class="last-move-from" x="{x}" y="{y}" width="{width}" height="{height}" '
        f'fill="none" stroke="{MARK}" stroke-width="2.5" stroke-dasharray="4 3"/>'
    )


_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}


def dice(x: float, y: float, roll: tuple[int, ...], size: float = 22, label: str = "") -> str:
    """Two dice faces side by side from (x, y), with a label after them."""
    parts = [f'<g class="dice" aria-label="dice {"-".join(str(d) for d in roll)}">']
    for i, die in enumerate(roll):
        left_x = x + i * (size + 5)
        parts.append(
            f'<rect x="{left_x}" y="{y}" width="{size}" height="{size}" rx="4" fill="#ffffff" '
            f'stroke="#222222" stroke-width="1.5"/>'
        )
        for px, py in _PIPS[die]:
            parts.append(
                f'<circle cx="{left_x + px * size:g}" cy="{y + py * size:g}" '
                f'r="{size / 10:g}" fill="#222222"/>'
            )
    if label:
        parts.append(
            f'<text x="{x + len(roll) * (size + 5) + 2}" y="{y + size / 2 + 4}">{label}</text>'
        )
    parts.append("</g>")
    return "".join(parts)
