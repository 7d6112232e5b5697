"""A bot for the clock tests, in the way its argument names:

- `echo` (referee protocol): plays the first legal move and reports, as its engine output, the
  clocks the position message gave it: `score` its own clock, `depth` its increment, `nodes`
  the opponent's clock, `pv` the first two legal moves. It exits (a crash) if the turns it is
  sent carry the opponent's engine output, which a bot must not see;
- `burn` (referee protocol): sleeps 40% of the clock it saw first on every move, so its third
  move runs out (by a fifth of the clock: its second fits with as much to spare);
- `trax-burn` (Trax contest protocol, which has no clock): the example contest bot, each of
  its moves 0.45 s late.
"""

import json
import runpy
import sys
import time
from pathlib import Path

MODE = sys.argv[1]
ENGINE_OUTPUT = ("score", "depth", "nodes", "pv")
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "bots"


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class _Slow:
    """Standard output that writes each line 0.45 s late."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if text.strip():
            time.sleep(0.45)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def trax_contest() -> None:
    """The example contest bot, slowed down."""
    sys.stdout = _Slow(sys.stdout)
    runpy.run_path(str(EXAMPLES / "trax_contest_bot.py"), run_name="__main__")


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
                time.sleep(first_clock * 0.4 / 1000)
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
