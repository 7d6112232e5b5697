#!/usr/bin/env python3
"""A Trax bot speaking the Trax contest protocol: it reads `-W` or `-B`, then the opponent's
moves one per line, and answers each with a random legal move in Trax notation. It keeps the
position with referee's Trax engine.

    referee tournament run --game trax --bots greedy --out t \\
        --external "contest@trax=python3 examples/bots/trax_contest_bot.py"
"""

import random
import sys

from referee.games.trax import GAME


def main() -> None:
    rng = random.Random(7)
    state = GAME.initial_state(GAME.ruleset())
    colour = sys.stdin.readline().strip()
    my_turn = colour == "-W"
    while True:
        if my_turn:
            move = rng.choice(state.legal_moves())
            print(GAME.format_move(state, move), flush=True)
            state = state.play(move)
        else:
            line = sys.stdin.readline()
            if not line:
                return
            state = state.play(GAME.parse_move(state, line.strip()))
        my_turn = not my_turn


if __name__ == "__main__":
    main()
