"""A bot that plays the first legal move and notes each game it sees end; after its first
N games, while the file FOLDER/hold exists, it answers no more moves (a game in the middle
of being played) and says so in a file FOLDER/holding-PID, so that a test can stop a
tournament with exactly N games of this process finished.

    holding.py N FOLDER
"""

import json
import os
import sys
import time
from pathlib import Path

LIMIT = int(sys.argv[1])
FOLDER = Path(sys.argv[2])
ended = 0
game = ""


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "hello", "name": "holding"})
    elif message["type"] == "new_game":
        game = f"{message['seed']} seat {message['seat']}"
    elif message["type"] == "game_over":
        ended += 1
        with open(FOLDER / "ended.txt", "a") as log:
            log.write(game + "\n")
    elif message["type"] == "position":
        if ended >= LIMIT and (FOLDER / "hold").exists():
            (FOLDER / f"holding-{os.getpid()}").write_text(str(ended))
            while (FOLDER / "hold").exists():
                time.sleep(0.05)
        send({"type": "move", "move": message["legal"][0]})
    elif message["type"] == "quit":
        break
