"""The search bots play the same games as before the shared search scaffolding.

`bot_games.json` was written by this module (`python tests/games/test_search_bots_unchanged.py
--write`) on the code before `referee/games/search.py` existed: the moves and what each bot
said about them (score, depth, nodes) of short games between depth-limited bots, so that
nothing depends on the machine's speed. A refactor of the searches must leave every move the
same; the golden values are the old code's, not the new code's.

The two games with `tdnet` were written again when its network began to evaluate exactly
(`referee/games/takhteh/net.py`): the same moves as before (checked then), its equity reported
to 4 decimals instead of a float whose last digits came from the machine's BLAS kernel.
The Thai and Trax games were written again when a bot's seed began to follow its name, not its
seat (`play.bot_seed`): the old code given the new seeds played them (checked then); the
Takhteh games do not change with the bots' seeds.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from referee.games import get_game
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game

GOLDEN = Path(__file__).parents[1] / "fixtures" / "bot_games.json"

# (game, bot of seat 0, bot of seat 1, turns): bots whose searches are limited by depth only
# (a time limit far beyond what the depth needs where the bot requires one).
MATCHES = [
    ("thai", "alphabeta:depth=5,time=0", "search:depth=5,time=0", 60),
    ("thai", "search:depth=6,time=0", "alphabeta:depth=4,time=0", 60),
    ("trax", "search:depth=2,time=1000", "threat:depth=2,time=1000", 24),
    ("trax", "greedy", "threat:depth=2,time=1000", 30),
    ("takhteh", "expectimax:depth=1,top=2,time=0", "tdnet:depth=1,top=3,time=0", 30),
    ("takhteh", "greedy", "expectimax:depth=1,top=1,time=0", 30),
]


def _game_digests(game_name: str, first: str, second: str, turns: int, seed: str) -> dict[str, str]:
    game = get_game(game_name)
    bots = [make_bot(game_name, first), make_bot(game_name, second)]
    players = [Player(name="a", spec=first), Player(name="b", spec=second)]
    record = play_game(GameSetup(game, game.ruleset(), players, seed, turn_cap=turns), bots)
    moves = "\n".join(f"{turn.move} {turn.score} {turn.depth}" for turn in record.turns)
    nodes = " ".join(str(turn.nodes) for turn in record.turns)
    return {
        "moves": hashlib.sha256(moves.encode()).hexdigest(),
        "nodes": hashlib.sha256(nodes.encode()).hexdigest(),
    }


def fingerprints() -> dict[str, dict[str, str]]:
    return {
        f"{game} {first} {second} {seed}": _game_digests(game, first, second, turns, seed)
        for game, first, second, turns in MATCHES
        for seed in ("s1", "s2")
    }


@pytest.mark.parametrize("key", sorted(json.loads(GOLDEN.read_text()) if GOLDEN.exists() else []))
def test_depth_limited_games_are_unchanged(key: str) -> None:
    game, first, second, seed = key.split()
    turns = next(t for g, a, b, t in MATCHES if (g, a, b) == (game, first, second))
    found = _game_digests(game, first, second, turns, seed)
    golden = json.loads(GOLDEN.read_text())[key]
    assert found["moves"] == golden["moves"]
    if "alphabeta" not in key:
        assert found["nodes"] == golden["nodes"]


if __name__ == "__main__":
    found = fingerprints()
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(found, indent=1) + "\n")
    print(json.dumps(found, indent=1))
