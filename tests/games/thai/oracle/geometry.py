# The frozen oracle of commit 947957b: a verbatim copy of referee/games/thai/geometry.py as it was
# there, imports pointed at this copy. Never edit it: tests/games/thai/test_oracle.py holds
# the engine to it. Bring it up to date only with a deliberate change of the rules.
"""The 32 dark squares of the board and precomputed tables over them.

Squares are numbered 1..32 as in PDN GameType 31: row by row from the top as Black sees the
board, left to right, square 1 at the top left. Internally a square is its bit index 0..31
(square - 1), so a set of squares is a 32-bit mask. Row 0 is the top row (White's back row,
where Black's men are promoted); the lower-left corner (square 29) is dark.
"""

from __future__ import annotations

BLACK, WHITE = 0, 1
"""The seats by colour: Black moves first (seat 0)."""
COLOURS = ("Black", "White")

SQUARES = 32
ALL = (1 << SQUARES) - 1

UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
_DELTAS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
OPPOSITE = (DOWN_RIGHT, DOWN_LEFT, UP_RIGHT, UP_LEFT)

FORWARD = ((UP_LEFT, UP_RIGHT), (DOWN_LEFT, DOWN_RIGHT))
"""The directions a man of each seat moves in: Black (seat 0) up the board, White down."""

FAR_ROW = (0x0000000F, 0xF0000000)
"""The row where each seat's men are promoted: row 0 for Black, row 7 for White."""

INCREASING = (False, False, True, True)
"""Whether a direction runs towards higher square numbers (down the board)."""


def row_col(index: int) -> tuple[int, int]:
    """Row and column (0..7, from Black's top left) of the square with bit `index`."""
    row = index >> 2
    return row, 2 * (index & 3) + (1 if row % 2 == 0 else 0)


def index_at(row: int, col: int) -> int:
    """The bit index of the dark square at (row, col), or -1 off the board or on a light one."""
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2 == 1:
        return row * 4 + col // 2
    return -1


def _step(index: int, direction: int) -> int:
    row, col = row_col(index)
    dr, dc = _DELTAS[direction]
    return index_at(row + dr, col + dc)


STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(_step(i, d) for i in range(SQUARES)) for d in DIRECTIONS
)
"""STEP[d][i]: the neighbour of square i in direction d, or -1."""


def _ray(index: int, direction: int) -> tuple[int, ...]:
    squares = []
    nxt = STEP[direction][index]
    while nxt >= 0:
        squares.append(nxt)
        nxt = STEP[direction][nxt]
    return tuple(squares)


RAY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(i, d) for i in range(SQUARES)) for d in DIRECTIONS
)
"""RAY[d][i]: the squares from i (exclusive) to the edge in direction d, nearest first."""

RAY_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << s for s in RAY[d][i]) for i in range(SQUARES)) for d in DIRECTIONS
)


def _direction_table() -> tuple[tuple[int, ...], ...]:
    table = [[-1] * SQUARES for _ in range(SQUARES)]
    for i in range(SQUARES):
        for d in DIRECTIONS:
            for s in RAY[d][i]:
                table[i][s] = d
    return tuple(tuple(row) for row in table)


DIRECTION = _direction_table()
"""DIRECTION[a][b]: the direction from a to b when they share a diagonal, else -1."""


def _between(a: int, b: int) -> int:
    d = DIRECTION[a][b]
    if d < 0:
        return 0
    mask = 0
    for s in RAY[d][a]:
        if s == b:
            break
        mask |= 1 << s
    return mask


BETWEEN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_between(a, b) for b in range(SQUARES)) for a in range(SQUARES)
)
"""BETWEEN[a][b]: the squares strictly between a and b on their diagonal (0 if none)."""


def bits(mask: int) -> list[int]:
    """The bit indices set in `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _aligned(directions: tuple[int, ...], need_jump: bool) -> tuple[tuple[int, int], ...]:
    """(shift, source mask) pairs that bring each square's neighbour bit onto the square.

    For the two forward directions of one seat the neighbour offsets all have one sign, so
    the shift is a plain amount: left for up the board, right for down. With `need_jump`,
    only squares that also have a square two steps on are kept.
    """
    groups: dict[int, int] = {}
    for d in directions:
        for i in range(SQUARES):
            target = STEP[d][i]
            if target < 0 or (need_jump and STEP[d][target] < 0):
                continue
            amount = abs(target - i)
            groups[amount] = groups.get(amount, 0) | (1 << i)
    return tuple(sorted(groups.items()))


STEP_ALIGN = (_aligned(FORWARD[0], False), _aligned(FORWARD[1], False))
"""Per seat: (shift, mask) pairs; a man on a square of `mask` steps forward by `shift` bits."""


def _jump_shift(direction: int) -> int:
    """The bit distance of a jump (two steps) in `direction`, the same from every square."""
    (amount,) = {
        abs(STEP[direction][STEP[direction][i]] - i)
        for i in range(SQUARES)
        if STEP[direction][i] >= 0 and STEP[direction][STEP[direction][i]] >= 0
    }
    return amount


JUMP_ALIGN = tuple(
    tuple((_jump_shift(d), _aligned((d,), True)) for d in FORWARD[seat]) for seat in (0, 1)
)
"""Per seat and forward direction: (jump shift, (shift, mask) pairs of the jumped square)."""
