"""A bot that follows the referee protocol until it misbehaves in the way its argument names."""

import json
import sys
import time

MODE = sys.argv[1]
moves = 0


def send(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if MODE == "mute":
            time.sleep(60)
        send(json.dumps({"type": "hello", "name": MODE}))
    elif kind == "position":
        moves += 1
        print(f"move {moves}", file=sys.stderr, flush=True)
        if moves < 3:
            send(json.dumps({"type": "move", "move": message["legal"][0]}))
        elif MODE == "sleep":
            time.sleep(60)
        elif MODE == "exit":
            sys.exit(3)
        elif MODE == "garbage":
            send("<<this is not json>>")
        elif MODE == "illegal":
            move = "R5" if "R5" not in message["legal"] else "P5 P5"
            send(json.dumps({"type": "move", "move": move}))
        elif MODE == "notation":
            send(json.dumps({"type": "move", "move": "castle kingside"}))
        elif MODE == "flood":
            sys.stdout.write("x" * 10_000_000)
            sys.stdout.flush()
            time.sleep(60)
        elif MODE == "late":
            time.sleep(0.55)
            send(json.dumps({"type": "move", "move": message["legal"][0]}))
        else:
            send(json.dumps({"type": "move", "move": message["legal"][0]}))
    elif kind == "quit":
        break
