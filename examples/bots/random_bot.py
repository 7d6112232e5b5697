#!/usr/bin/env python3
"""A referee bot in plain Python (standard library only): it plays a random legal move.

Run a tournament against it:
    referee tournament run --game thax --bots greedy --out t \
        --external "mine=python3 examples/bots/random_bot.py"
The protocol is in docs/bot-protocol.md. The bot speaks version 2 when referee offers it (each
position then brings only the turns played since the last one) and version 1 otherwise; it
keeps the game's turns either way, as a bot that rebuilds the position would.
"""

import json
import random
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    rng = random.Random()
    version = 1
    turns: list[dict] = []
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            version = 2 if 2 in message.get("protocol_versions", ()) else 1
            hello = {"name": "example-random", "bot_version": "1.1", "protocol_version": version}
            send({"type": "hello", **hello})
        elif kind == "new_game":
            rng.seed(message["seed"])  # the same game gives the same moves
            turns = []
        elif kind == "position":
            if version == 1:
                turns = message["turns"]  # the whole game so far
            elif message["from_turn"] == len(turns):
                turns += message["turns"]  # the turns since the last position
            else:
                sys.exit(f"missed turns: have {len(turns)}, sent from {message['from_turn']}")
            send({"type": "info", "text": f"{len(turns)} turns, {len(message['legal'])} legal"})
            send({"type": "move", "move": rng.choice(message["legal"])})
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
