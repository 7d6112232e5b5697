"""A referee-protocol bot for the clock tests, in the way its argument names:

- `echo`: plays the first legal move and reports, as its engine output, the clocks the
  position message gave it: `score` its own clock, `depth` its increment, `nodes` the
  opponent's clock (-1 for none is not allowed, so 0), `pv` the first two legal moves;
- `burn`: sleeps 45% of the clock it saw first on every move, so its third move runs out.
"""

import json
import sys
import time

MODE = sys.argv[1]
first_clock = None


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send({"type": "hello", "name": MODE})
    elif kind == "position":
        seat = message["seat"]
        clocks = message["clock_ms"]
        move = message["legal"][0]
        if MODE == "burn":
            if first_clock is None:
                first_clock = clocks[seat]
            time.sleep(first_clock * 0.45 / 1000)
            send({"type": "move", "move": move})
        else:
            send(
                {
                    "type": "move",
                    "move": move,
                    "score": clocks[seat],
                    "depth": message["increment_ms"],
                    "nodes": clocks[1 - seat] or 0,
                    "pv": message["legal"][:2],
                }
            )
    elif kind == "new_game":
        first_clock = None
    elif kind == "quit":
        break
