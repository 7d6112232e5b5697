"""Takhteh engine speed: random playouts, legal-play generation, play checks, validation.

Times are CPU seconds of the process doing the work (`time.process_time`), so that other work
on a shared machine slows a run less; each figure is the median (and the best) of several runs.
With `--openspiel PYTHON` (an interpreter that has `open_spiel`, which referee does not depend
on) OpenSpiel's C++ backgammon driven from a Python loop plays random games in a child process,
its runs alternating with this engine's, so both are measured in the same conditions.

    taskset -c 0 python benchmarks/takhteh_speed.py [--openspiel /path/to/python]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engines import playout

from referee.bots.registry import make_bot
from referee.games.takhteh import GAME
from referee.games.takhteh.rules import TakhtehState
from referee.records.io import write_jsonl
from referee.records.model import Player
from referee.records.replay import replay
from referee.tournament.play import play_game
from referee.validator.check import validate_file

RUNS = 7
PLAYOUTS = 100

# The random game loop of benchmarks/engines.py, on OpenSpiel: sample the dice by their
# probabilities, list the legal actions, apply one at random. Prints games per CPU second.
OPENSPIEL = """
import random, sys, time
import pyspiel
game = pyspiel.load_game("backgammon")
rng = random.Random(int(sys.argv[2]))
started = time.process_time()
for _ in range(int(sys.argv[1])):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [action for action, _ in outcomes]
            weights = [chance for _, chance in outcomes]
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
print(int(sys.argv[1]) / (time.process_time() - started))
"""


def rate(work: Callable[[], int]) -> float:
    """Items per CPU second of one run of `work` (which returns its count)."""
    started = time.process_time()
    count = work()
    return count / (time.process_time() - started)


def summary(rates: list[float]) -> str:
    return f"{statistics.median(rates):12,.0f} {max(rates):12,.0f}"


def playouts(games: int, seed: int) -> int:
    """Random games from the opening roll to the end, by benchmarks/engines.py's loop: the
    dice by their probabilities, the legal plays, one at random."""
    rng = random.Random(seed)
    start = GAME.initial_state(GAME.ruleset())
    for _ in range(games):
        playout(start, rng, GAME.turn_cap * 2)
    return games


def openspiel_playouts(python: str, games: int, seed: int) -> float:
    done = subprocess.run(
        [python, "-c", OPENSPIEL, str(games), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout)


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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--openspiel", metavar="PYTHON", help="a Python that has open_spiel")
    args = parser.parse_args()
    print(f"{'per CPU second':40} {'median':>12} {'best':>12}")
    ours: list[float] = []
    theirs: list[float] = []
    for run in range(RUNS):
        ours.append(rate(lambda run=run: playouts(PLAYOUTS, run)))
        if args.openspiel:
            theirs.append(openspiel_playouts(args.openspiel, PLAYOUTS, run))
    print(f"{'random playouts (games)':40} {summary(ours)}")
    if theirs:
        print(f"{'OpenSpiel backgammon playouts (games)':40} {summary(theirs)}")
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        print(f"{'  ratio, run by run (%)':40} {summary([100 * r for r in ratios])}")
    states = sample_states(40)
    print(f"{'legal-play generation (positions)':40} ", end="")
    print(summary([rate(lambda: generation(states)) for _ in range(RUNS)]))
    games = records(200)
    print(f"{'replay of records (moves)':40} ", end="")
    print(summary([rate(lambda: replay_moves(games)) for _ in range(RUNS)]))
    moves = sum(len(record.turns) for record in games)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        write_jsonl(path, games)
        rates = [
            rate(lambda: moves if all(r.valid for r in validate_file(path)) else 0)
            for _ in range(RUNS)
        ]
    print(f"{'validation from JSONL (moves)':40} {summary(rates)}")


if __name__ == "__main__":
    main()
