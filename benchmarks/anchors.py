"""The anchors: other people's engines, run by the benchmark scripts in the same run as
referee's so that both meet the same machine and load. They are optional (`pip install -e
'.[bench]'` installs open_spiel and python-chess); a script skips an anchor that is missing
and says so.

Each loop here is the same as referee's loop beside it: OpenSpiel's random playout is
benchmarks/engines.py's `playout`, its legal actions are listed on states rebuilt from their
serialised text as referee's are from their position text, and python-chess replays PGN
text, parsing and checking each move, as the validator does with records.
"""

from __future__ import annotations

import importlib
import io
import random
import sys
from types import ModuleType
from typing import Any

OPENSPIEL = "open_spiel (pip install open_spiel)"
CHESS = "python-chess (pip install chess)"


def optional(module: str) -> ModuleType | None:
    """The module if it is installed, else None."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def missing(anchor: str) -> str:
    return f"Not run: {anchor} is not installed (`pip install -e '.[bench]'`)."


# -- OpenSpiel ------------------------------------------------------------------------------


def spiel_playout(state: Any, rng: random.Random, cap: int, seen: list[str] | None = None) -> int:
    """One random game of an OpenSpiel state, by the loop of benchmarks/engines.py: the dice by
    their probabilities, the legal actions, one at random. The number of actions; the decision
    positions, serialised, go into `seen` when it is given."""
    actions = 0
    for _ in range(cap):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            rolls = [roll for roll, _ in outcomes]
            weights = [p for _, p in outcomes]
            state.apply_action(rng.choices(rolls, weights)[0])
        else:
            if seen is not None:
                seen.append(state.serialize())
            state.apply_action(rng.choice(state.legal_actions()))
        actions += 1
    return actions


def spiel_positions(game: Any, games: int, seed: int, cap: int) -> list[str]:
    """The serialised decision positions of `games` random games of an OpenSpiel game."""
    rng = random.Random(seed)
    seen: list[str] = []
    for _ in range(games):
        spiel_playout(game.new_initial_state(), rng, cap, seen)
    return seen


# -- python-chess ---------------------------------------------------------------------------


def chess_games(chess: ModuleType, games: int, seed: int, cap: int = 200) -> list[str]:
    """`games` random chess games as PGN text (SAN moves), each to its end or `cap` plies."""
    pgn = importlib.import_module("chess.pgn")
    rng = random.Random(seed)
    texts = []
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < cap:
            board.push(rng.choice(list(board.legal_moves)))
        texts.append(str(pgn.Game.from_board(board)))
    return texts


def chess_replay(texts: list[str]) -> int:
    """Read every PGN game (python-chess parses each SAN move against the legal moves of its
    position and plays it): the number of moves read."""
    pgn = importlib.import_module("chess.pgn")
    moves = 0
    for text in texts:
        game = pgn.read_game(io.StringIO(text))
        assert game is not None and not game.errors, text
        moves += game.end().ply()
    return moves


def chess_read_file(path: str) -> int:
    """Read every game of a PGN file as `chess_replay` reads them: the number of moves."""
    pgn = importlib.import_module("chess.pgn")
    moves = 0
    with open(path, encoding="utf-8") as stream:
        while (game := pgn.read_game(stream)) is not None:
            assert not game.errors, game.errors
            moves += game.end().ply()
    return moves


if __name__ == "__main__":
    # `python benchmarks/anchors.py FILE.pgn`: python-chess reading a PGN file as a whole
    # process, the anchor of `referee validate` run as a command (benchmarks/validate.py).
    print(chess_read_file(sys.argv[1]))
