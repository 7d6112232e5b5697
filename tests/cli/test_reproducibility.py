"""Bots that stop at a time limit make a seed's games depend on the machine: said where it
counts."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from referee.cli.app import app
from referee.tournament.config import BotEntry, build_config
from referee.tournament.timing import timed_bots

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def config(game: str, *specs: str, time_limit: float | None = None):
    entries = [BotEntry(name=spec, spec=spec) for spec in specs]
    return build_config(game=game, bots=entries, time_limit=time_limit)


def test_time_limited_bots_by_default_and_by_option() -> None:
    # thai alphabeta and trax search stop at 1 s a move unless told otherwise; takhteh
    # expectimax has no time limit unless given one.
    assert timed_bots(config("thai", "random", "alphabeta", "greedy")) == ["alphabeta"]
    assert timed_bots(config("thai", "random", "alphabeta:time=0,depth=2")) == []
    assert timed_bots(config("trax", "greedy", "search")) == ["search"]
    assert timed_bots(config("takhteh", "expectimax", "expectimax:time=0.5")) == [
        "expectimax:time=0.5"
    ]
    external = build_config(
        game="thax",
        bots=[BotEntry(name="a", spec="random"), BotEntry(name="mine", command=["./mine"])],
        time_limit=2.0,
    )
    assert timed_bots(external) == ["mine"]


def test_tournament_run_says_so_once(tmp_path: Path) -> None:
    args = ["tournament", "run", "--game", "thai", "--games-per-pair", "2"]  # -q: no notes
    timed = runner.invoke(
        app, [*args, "--bots", "random,alphabeta:depth=1", "--out", str(tmp_path / "a")]
    )
    assert timed.exit_code == 0, timed.output
    notes = [line for line in timed.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "alphabeta:depth=1" in notes[0] and "--seed" in notes[0]
    untimed = runner.invoke(app, [*args, "--bots", "random,greedy", "--out", str(tmp_path / "b")])
    assert untimed.exit_code == 0 and "note:" not in untimed.stderr


def test_the_readme_says_time_limits_depend_on_the_machine() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "interrupted or not" in readme
    sentence = readme[readme.index("The same seed") :].split(". ")[0]
    assert "time limit" in sentence and "machine" in sentence
