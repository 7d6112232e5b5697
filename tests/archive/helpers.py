"""Archives for the select and stats tests: random games of each game, with headers varied."""

from __future__ import annotations

import functools
from pathlib import Path

import typer
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import archive
from referee.cli.app import RefereeGroup
from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.records.io import parse_record_json
from referee.records.model import EventInfo, Player, Reason, Record, Result
from referee.tournament.play import GameSetup, play_game

runner = CliRunner()
app = typer.Typer(cls=RefereeGroup, pretty_exceptions_enable=False)
archive.register(app)
"""Only the archive commands (typer builds every command of an app at each call), under the
root command that turns errors into one line."""
NAMES = ("ann", "bob", "cy")
EVENTS = (None, "Club Cup", "club night", "Open")
TAG_VALUES = ("x", "y")
POOL_SIZE = 5


@functools.cache
def pool() -> tuple[Record, ...]:
    """A few random games of each game, played once per test session."""
    games = []
    players = [Player(name="p", kind="bot"), Player(name="q", kind="bot")]
    kinds = [(name, "standard", POOL_SIZE) for name in GAME_NAMES] + [("trax", "8x8", 2)]
    for name, variant, count in kinds:
        game = get_game(name)
        ruleset = game.ruleset(variant)
        for index in range(count):
            bots = [RandomBot(), RandomBot()]
            games.append(
                play_game(GameSetup(game, ruleset, players, f"archive{index}", turn_cap=200), bots)
            )
    return tuple(games)


@st.composite
def records(draw: st.DrawFn) -> Record:
    """A game of the pool with drawn names, event, tags and (sometimes) another result."""
    base = draw(st.sampled_from(pool()))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2))
    update: dict[str, object] = {
        "players": [Player(name=names[0], kind="bot"), Player(name=names[1], kind="human")],
        "event": EventInfo(event=draw(st.sampled_from(EVENTS))),
        "tags": draw(
            st.dictionaries(st.sampled_from(("Opening", "Note")), st.sampled_from(TAG_VALUES))
        ),
    }
    if draw(st.booleans()):
        update["result"] = Result(
            winner=draw(st.sampled_from([0, 1, None])),
            points=1,
            reason=draw(st.sampled_from(list(Reason))),
        )
    return base.model_copy(update=update)


def archives(min_size: int = 0, max_size: int = 8) -> st.SearchStrategy[list[Record]]:
    return st.lists(records(), min_size=min_size, max_size=max_size)


def read_jsonl(path: Path) -> list[Record]:
    return [parse_record_json(line) for line in path.read_bytes().splitlines() if line.strip()]


def select(*args: str, input: bytes | None = None):
    return runner.invoke(app, ["select", *args], input=input)


def stats(*args: str):
    return runner.invoke(app, ["stats", *args])
