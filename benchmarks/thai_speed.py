"""Thai checkers speed: move-sequence counts, random playouts, replay and validation.

Run: `python benchmarks/thai_speed.py [games]` (default 300 random games for the replay and
validation figures). Prints the best of five runs of each measurement, in CPU time of this
process: on a shared machine the slower runs measure the neighbours as much as the code.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time  # process_time: CPU time of this process, steadier on a shared machine
from pathlib import Path

from referee.games import get_game
from referee.games.base import perft_counts
from referee.games.thai.fen import ENGLISH_START_FEN
from referee.records.io import iter_jsonl, write_jsonl
from referee.records.model import Player, Reason, Result, ThaiRecord, Turn
from referee.records.replay import result_of
from referee.validator.check import validate_file

GAME = get_game("thai")
RULESET = GAME.ruleset()


def best_time(work, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def random_record(seed: int) -> ThaiRecord:
    rng = random.Random(seed)
    state = GAME.initial_state(RULESET)
    turns = []
    while state.outcome() is None and len(turns) < GAME.turn_cap:
        move = rng.choice(state.legal_moves())
        turns.append(Turn(seat=state.to_move, move=GAME.format_move(state, move)))
        state = state.play(move)
    outcome = state.outcome()
    result = (
        result_of(outcome)
        if outcome is not None
        else Result(winner=None, points=0, reason=Reason.ADJUDICATED, detail="turn cap")
    )
    players = [Player(name="a"), Player(name="b")]
    return ThaiRecord(game="thai", ruleset=RULESET.id, players=players, turns=turns, result=result)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    start = GAME.parse_position(RULESET, ENGLISH_START_FEN)
    seconds = best_time(lambda: perft_counts(start, 7))
    print(f"perft 12-man start, depths 1-7 (179,740 at 7): {seconds:.2f} s")

    records = [random_record(seed) for seed in range(games)]
    moves = sum(len(r.turns) for r in records)

    def playouts() -> None:
        for seed in range(games):
            random_record(seed)

    seconds = best_time(playouts)
    print(f"random playouts: {games / seconds:,.0f} games/s ({moves / seconds:,.0f} moves/s)")

    def replay() -> None:
        for record in records:
            state = GAME.initial_state(RULESET)
            for turn in record.turns:
                if state.is_terminal():
                    raise AssertionError("ended early")
                state = state.play(GAME.parse_move(state, turn.move))
            state.outcome()

    seconds = best_time(replay)
    print(f"replay (parse + play + end check): {moves / seconds:,.0f} moves/s")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        write_jsonl(path, records)

        def load() -> None:
            with path.open("rb") as stream:
                for _ in iter_jsonl(stream):
                    pass

        seconds = best_time(load)
        print(f"load JSONL records only (no replay): {moves / seconds:,.0f} moves/s")

        def validate() -> None:
            reports = list(validate_file(path))
            assert all(report.valid for report in reports), reports[0]

        seconds = best_time(validate)
        print(f"validate JSONL ({games} games, {moves:,} moves): {moves / seconds:,.0f} moves/s")


if __name__ == "__main__":
    main()
