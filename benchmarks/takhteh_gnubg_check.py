"""Hold the Takhteh engine against GNU Backgammon where the two games agree.

Needs the `gnubg` Python bindings (PyPI `gnubg`), which referee does not depend on: run it in
an environment that has them and can import referee, e.g.

    python -m venv /tmp/gnubg && /tmp/gnubg/bin/pip install gnubg
    PYTHONPATH=. /tmp/gnubg/bin/python benchmarks/takhteh_gnubg_check.py 100

Over the positions of random games it checks that Position IDs encode and decode as gnubg
does, and, where the Takhteh restrictions cannot apply (no opposing blot in the mover's home
board, no bearing off possible during the turn), that the legal plays and their canonical
texts are gnubg's.
"""

from __future__ import annotations

import random
import sys

import gnubg

from referee.games.takhteh import GAME, position_id
from referee.games.takhteh.rules import _may_bear_off, outside_count


def gnubg_board(board: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board: the player not on roll, then the player on roll, each from its side."""
    theirs = tuple(-board[25 - q] if board[25 - q] < 0 else 0 for q in range(1, 25))
    mine = tuple(board[p] if board[p] > 0 else 0 for p in range(1, 25))
    return (*theirs, -board[0]), (*mine, board[25])


def restrictions_cannot_apply(board: tuple[int, ...], high: int, low: int) -> bool:
    if any(board[p] == -1 for p in range(1, 7)):
        return False
    if high == low:
        return not _may_bear_off(board, high)
    return outside_count(board) >= 2


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    rng = random.Random(1)
    ids = plays = differences = 0
    for _ in range(games):
        state = GAME.initial_state(GAME.ruleset(), first=0)
        while not state.is_terminal():
            state = state.apply_chance((rng.randint(1, 6), rng.randint(1, 6)))
            board = state.board
            text = position_id.encode(board)
            ids += 1
            if gnubg.position_id(gnubg_board(board)) != text:
                differences += 1
                print("position id", text)
            high, low = state.roll  # type: ignore[misc]
            if restrictions_cannot_apply(board, high, low):
                plays += 1
                theirs = gnubg_board(board)
                found = gnubg.find_best_moves(
                    theirs, gnubg.cubeinfo(), gnubg.evalcontext(), (high, low)
                )
                expected = {gnubg.move_tuple_to_string(m["move"], theirs) for m in found}
                ours = {GAME.format_move(state, move) for move in state.legal_moves()} - {""}
                if ours != expected:
                    differences += 1
                    print("plays", text, (high, low), sorted(ours ^ expected))
            state = state.play(rng.choice(state.legal_moves()))
    print(f"{ids} Position IDs, {plays} positions' plays compared, {differences} differences")


if __name__ == "__main__":
    main()
