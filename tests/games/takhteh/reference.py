"""A slow, plain Takhteh move generator written from docs/rules/takhteh.md alone, to check the
engine against.

It tries every checker with every die order, leg by leg, keeps the sequences that cannot go
on, and only then applies "as many dice as possible" and "the larger die". Boards are the
engine's: 26 ints seen from the mover (index 25 the mover's bar, index 0 minus the opponent's
bar, negative counts for the opponent).
"""

from __future__ import annotations

import random

Board = tuple[int, ...]


def _all_home(board: list[int]) -> bool:
    return all(board[p] <= 0 for p in range(7, 26))


def _single_legs(
    board: list[int], die: int, frozen: list[int], takhteh: bool = True
) -> list[tuple[int, int]]:
    """Each (from, to) the die may move now; `frozen` counts checkers that hit in the home.

    With `takhteh` False the two Takhteh restrictions are left out (standard backgammon).
    """
    legs = []
    for src in range(25, 0, -1):
        if board[src] - frozen[src] <= 0:
            continue
        if board[25] > 0 and src != 25:
            continue
        dst = src - die
        bearing_off = _all_home(board)
        if dst <= 0:
            if not bearing_off:
                continue
            if dst < 0 and any(board[p] > 0 for p in range(src + 1, 7)):
                continue
            dst = 0
        elif board[dst] <= -2:
            continue
        # No wasted pips: while bearing off, a die matching a point with a checker of the
        # mover that may move must bear that checker off.
        if (
            takhteh
            and bearing_off
            and board[die] - frozen[die] > 0
            and not (src == die and dst == 0)
        ):
            continue
        legs.append((src, dst))
    return legs


def _play_leg(board: list[int], frozen: list[int], src: int, dst: int, takhteh: bool) -> None:
    board[src] -= 1
    if dst == 0:
        return
    if board[dst] == -1:
        board[dst] = 1
        board[0] -= 1
        if dst <= 6 and takhteh:
            frozen[dst] += 1
    else:
        board[dst] += 1


def reference_positions(board: Board, roll: tuple[int, int], takhteh: bool = True) -> set[Board]:
    """The positions (seen from the mover) that legal plays of `roll` reach.

    With `takhteh` False: the positions of standard backgammon, for contrast in tests.
    """
    high, low = max(roll), min(roll)
    orders = [[high] * 4] if high == low else [[high, low], [low, high]]
    ends: list[tuple[int, int, Board]] = []  # (dice used, first die, position)

    def walk(b: list[int], frozen: list[int], dice: list[int], used: int, first: int) -> None:
        moved = False
        if dice:
            for src, dst in _single_legs(b, dice[0], frozen, takhteh):
                moved = True
                nb, nf = list(b), list(frozen)
                _play_leg(nb, nf, src, dst, takhteh)
                walk(nb, nf, dice[1:], used + 1, first or dice[0])
        if not moved:
            ends.append((used, first, tuple(b)))

    for dice in orders:
        walk(list(board), [0] * 26, dice, 0, 0)
    most = max(used for used, _, _ in ends)
    kept = [(first, pos) for used, first, pos in ends if used == most]
    if high != low and most == 1 and any(first == high for first, _ in kept):
        kept = [(first, pos) for first, pos in kept if first == high]
    return {pos for _, pos in kept}


def random_board(rng: random.Random, home_bias: float = 0.3) -> Board:
    """A random legal position: 15 checkers a side on points, bar or off, no shared points.

    `home_bias` is the chance that a checker of the mover goes to the home board, so that
    bearing off and hits in the home board come up often.
    """
    board = [0] * 26
    for sign in (1, -1):
        for _ in range(rng.choice((15, 15, 15, rng.randint(1, 15)))):
            for _attempt in range(50):
                roll = rng.random()
                if roll < 0.04:
                    point = 25 if sign > 0 else 0
                elif sign > 0 and roll < home_bias:
                    point = rng.randint(1, 6)
                else:
                    point = rng.randint(1, 24)
                if point in (0, 25) or board[point] * sign >= 0:
                    board[point] += sign
                    break
    return tuple(board)


def make_board(mine: dict[int, int], theirs: dict[int, int]) -> Board:
    """A position seen from the mover: `mine` and `theirs` map the mover's points (25 is the
    bar of the checker's owner) to counts; checkers not placed are borne off."""
    board = [0] * 26
    for point, count in mine.items():
        board[point] += count
    for point, count in theirs.items():
        board[0 if point == 25 else point] -= count
    assert sum(mine.values()) <= 15 and sum(theirs.values()) <= 15
    return tuple(board)
