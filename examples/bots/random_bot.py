#!/usr/bin/env python3
"""A referee bot in plain Python (standard library only): it plays a random legal move.

Run a tournament against it:
    referee tournament run --game thax --bots greedy --out t \
        --external "mine=python3 examples/bots/random_bot.py"
The protocol is in docs/bot-protocol.md.
"""

import json
import random
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            hello = {"name": "example-random", "bot_version": "1.0", "protocol_version": 1}
            send({"type": "hello", **hello})
        elif kind == "new_game":
            rng.seed(message["seed"])  # the same game gives the same moves
        elif kind == "position":
            send({"type": "info", "text": f"{len(message['legal'])} legal moves"})
            send({"type": "move", "move": rng.choice(message["legal"])})
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
