"""A bot for the clock tests, in the way its argument names:

- `echo` (referee protocol): plays the first legal move and reports, as its engine output, the
  clocks the position message gave it: `score` its own clock, `depth` its increment, `nodes`
  the opponent's clock, `pv` the first two legal moves. It exits (a crash) if the turns it is
  sent carry the opponent's engine output, which a bot must not see;
- `burn` (referee protocol): sleeps 45% of the clock it saw first on every move, so its third
  move runs out;
- `trax-burn` (Trax contest protocol, which has no clock): random legal moves, 0.45 s each.
"""

import json
import random
import sys
import time

MODE = sys.argv[1]
ENGINE_OUTPUT = ("score", "depth", "nodes", "pv")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def trax_contest() -> None:
    from referee.games.trax import GAME

    rng = random.Random(3)
    state = GAME.initial_state(GAME.ruleset())
    my_turn = sys.stdin.readline().strip() == "-W"
    while True:
        if my_turn:
            time.sleep(0.45)
            move = rng.choice(state.legal_moves())
            print(GAME.format_move(state, move), flush=True)
            state = state.play(move)
        else:
            line = sys.stdin.readline()
            if not line:
                return
            state = state.play(GAME.parse_move(state, line.strip()))
        my_turn = not my_turn


def referee_protocol() -> None:
    first_clock = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "name": MODE})
        elif kind == "new_game":
            first_clock = None
        elif kind == "position":
            seat = message["seat"]
            clocks = message["clock_ms"]
            move = message["legal"][0]
            if any(key in turn for turn in message["turns"] for key in ENGINE_OUTPUT):
                sys.exit(5)
            if MODE == "burn":
                first_clock = first_clock or clocks[seat]
                time.sleep(first_clock * 0.45 / 1000)
                send({"type": "move", "move": move})
                continue
            send(
                {
                    "type": "move",
                    "move": move,
                    "score": clocks[seat],
                    "depth": message["increment_ms"],
                    "nodes": clocks[1 - seat],
                    "pv": message["legal"][:2],
                }
            )
        elif kind == "quit":
            break


if MODE == "trax-burn":
    trax_contest()
else:
    referee_protocol()
