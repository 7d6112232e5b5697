"""A referee-protocol bot that keeps the turns it is sent and notes each game's turns, and its
process id, in NOTES/PID.jsonl when the game ends: the tests compare them with the records.

Arguments: NOTES VERSION [GAMES_PER_PROCESS]. It plays the first legal move."""

import json
import os
import sys
from pathlib import Path

notes = Path(sys.argv[1]) / f"{os.getpid()}.jsonl"
version = int(sys.argv[2])
hello = {"type": "hello", "name": "turns", "protocol_version": version}
if len(sys.argv) > 3:
    hello["games_per_process"] = int(sys.argv[3])
turns: list = []
positions = 0


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send(hello)
    elif kind == "new_game":
        turns, positions = [], 0
    elif kind == "position":
        if version == 1:
            turns = message["turns"]
        else:
            if message["from_turn"] != len(turns) or set(message) & {"ruleset", "seat"}:
                sys.exit(f"bad version 2 position: {line}")
            turns += message["turns"]
        positions += 1
        send({"type": "move", "move": message["legal"][0]})
    elif kind == "game_over":
        with notes.open("a") as out:
            out.write(json.dumps({"turns": turns, "positions": positions}) + "\n")
    elif kind == "quit":
        break
