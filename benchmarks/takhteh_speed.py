"""Takhteh engine speed: random playouts, legal-play generation, play checks, validation.

Times are CPU seconds of this process (`time.process_time`); each figure is the best of
several runs, since other work on a shared machine only ever slows a run down.

    python benchmarks/takhteh_speed.py
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from referee.bots.registry import make_bot
from referee.games.takhteh import GAME
from referee.games.takhteh.rules import TakhtehState
from referee.records.io import write_jsonl
from referee.records.model import Player
from referee.records.replay import replay
from referee.tournament.play import play_game
from referee.validator.check import validate_file

RUNS = 7


def best_rate(work: Callable[[], int]) -> float:
    """Items per CPU second, the best of RUNS runs of `work` (which returns its count)."""
    rates = []
    for _ in range(RUNS):
        started = time.process_time()
        count = work()
        rates.append(count / (time.process_time() - started))
    return max(rates)


def playouts(games: int, seed: int) -> int:
    """Random games from the opening roll to the end: dice, legal plays, a choice, the play."""
    rng = random.Random(seed)
    ruleset = GAME.ruleset()
    for _ in range(games):
        state = GAME.initial_state(ruleset)
        while not state.is_terminal():
            state = state.apply_chance((rng.randint(1, 6), rng.randint(1, 6)))
            if state.roll is not None:
                state = state.play(rng.choice(state.legal_moves()))
    return games


def sample_states(games: int) -> list[TakhtehState]:
    rng = random.Random(1)
    states = []
    for _ in range(games):
        state = GAME.initial_state(GAME.ruleset(), first=0)
        while not state.is_terminal():
            state = state.apply_chance((rng.randint(1, 6), rng.randint(1, 6)))
            states.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return states


def generation(states: list[TakhtehState]) -> int:
    for state in states:
        TakhtehState(state.ruleset, state.board, state.seat, state.roll).legal_moves()
    return len(states)


def records(games: int) -> list:
    bots = [make_bot("takhteh", "random"), make_bot("takhteh", "random")]
    players = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
    return [play_game(GAME, GAME.ruleset(), bots, players, seed=f"speed-{n}") for n in range(games)]


def replay_moves(games: list) -> int:
    return sum(1 for record in games for _ in replay(record))


def main() -> None:
    print(f"{'measure':40} {'per CPU second':>15}")
    rate = best_rate(lambda: playouts(40, 7))
    print(f"{'random playouts (games)':40} {rate:15,.0f}")
    states = sample_states(40)
    rate = best_rate(lambda: generation(states))
    print(f"{'legal-play generation (positions)':40} {rate:15,.0f}")
    games = records(200)
    moves = sum(len(record.turns) for record in games)
    rate = best_rate(lambda: replay_moves(games))
    print(f"{'replay of records (moves)':40} {rate:15,.0f}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        write_jsonl(path, games)
        rate = best_rate(lambda: moves if all(r.valid for r in validate_file(path)) else 0)
    print(f"{'validation from JSONL (moves)':40} {rate:15,.0f}")


if __name__ == "__main__":
    main()
