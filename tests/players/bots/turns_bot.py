"""A referee-protocol bot that keeps the turns it is sent and notes each game's turns, and its
process id, in NOTES/PID.jsonl when the game ends: the tests compare them with the records.

Arguments: NOTES VERSION [GAMES_PER_PROCESS [own]]. It plays the first legal move: the one
listed first, or with `own` (THAX only) the first its own engine (referee's) finds, having
asked for positions without the list."""

import json
import os
import sys
from pathlib import Path

notes = Path(sys.argv[1]) / f"{os.getpid()}.jsonl"
version = int(sys.argv[2])
hello = {"type": "hello", "name": "turns", "protocol_version": version}
if len(sys.argv) > 3 and sys.argv[3] != "0":
    hello["games_per_process"] = int(sys.argv[3])
own = sys.argv[4:] == ["own"]
if own:
    from referee.games import get_game

    hello["legal"] = False
    game = get_game("thax")
turns: list = []
positions = seat = 0


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def first_move(message: dict) -> str:
    if not own:
        return message["legal"][0]
    if "legal" in message:
        sys.exit("a position listing legal moves, though the hello asked for none")
    state = game.initial_state(game.ruleset(), None, turns[0]["seat"] if turns else seat)
    for turn in turns:
        state = state.apply_chance(tuple(turn["roll"]))
        state = state.play(game.parse_move(state, turn["move"]))
    state = state.apply_chance(tuple(message["roll"]))
    return game.format_move(state, state.legal_moves()[0])


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send(hello)
    elif kind == "new_game":
        turns, positions, seat = [], 0, message["seat"]
    elif kind == "position":
        if version == 1:
            turns = message["turns"]
        else:
            if message["from_turn"] != len(turns) or set(message) & {"ruleset", "seat"}:
                sys.exit(f"bad version 2 position: {line}")
            turns += message["turns"]
        positions += 1
        send({"type": "move", "move": first_move(message)})
    elif kind == "game_over":
        with notes.open("a") as out:
            out.write(json.dumps({"turns": turns, "positions": positions}) + "\n")
    elif kind == "quit":
        break
