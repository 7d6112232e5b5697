"""A bot that plays the first legal move, but not before the file named by its argument
exists: a test holds a tournament open with it for as long as it needs."""

import json
import sys
import time
from pathlib import Path

GATE = Path(sys.argv[1])


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "hello", "name": "gated"})
    elif message["type"] == "position":
        while not GATE.exists():
            time.sleep(0.05)
        send({"type": "move", "move": message["legal"][0]})
    elif message["type"] == "quit":
        break
