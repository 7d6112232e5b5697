"""A plug-in game is analysed once it gives a reference: tic-tac-toe (tests/plugins), solved
here by an exhaustive search, finds the one losing reply to a centre opening; without the
hook the command refuses its games in one line."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import referee.games
from referee.games import register_game
from referee.games.reference import SearchReference
from referee.games.search import lost_in, won_in
from referee.records.io import parse_record
from tests.analysis.helpers import analysed
from tests.plugins.test_plugin_game import GAME, TicTacToe, TicTacToeState, cli, record


@cache
def solved(state: TicTacToeState) -> float:
    """The score for the player to move under perfect play: a win sooner scores higher."""
    outcome = state.outcome()
    if outcome is not None:
        # A finished game is lost for the player to move, or drawn.
        return 0.0 if outcome.winner is None else lost_in(0)
    scores = []
    for move in state.legal_moves():
        score = -solved(state.play(move))
        scores.append(score - 1 if score > 0 else score + 1 if score < 0 else 0.0)
    return max(scores)


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee.games, "_plugins", dict(referee.games._plugins))
    register_game(GAME)


def test_a_plug_in_with_a_reference_is_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        TicTacToe, "reference", lambda self, spec=None: SearchReference("solved", solved, 1.0)
    )
    assert solved(GAME.initial_state(GAME.ruleset())) == 0.0 and won_in(0) == -lost_in(0)
    # x takes the centre, o an edge: the losing reply.
    game = parse_record(record(["b2", "a2"], None))
    analysis = analysed(game)
    assert analysis.engine == "solved"
    errors = [turn.error for turn in analysis.turns]
    assert errors == [0.0, 0.5]  # every first move draws; the edge turns a draw to a loss
    assert analysis.seats[1].blunders == 1 and analysis.seats[0].error_total == 0.0
    assert [turn.value for turn in analysis.turns] == [0.5, 0.5]
    assert analysis.turns[1].best in ("a1", "a3", "c1", "c3")


def test_a_plug_in_without_a_reference_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "ttt.json").write_text(json.dumps(record(["b2", "a2"], None)), encoding="utf-8")
    code, _, err = cli("analyse", tmp_path / "ttt.json")
    assert code == 2
    where = tmp_path / "ttt.json"
    assert (
        err.strip()
        == f"referee: error: {where}:1: Tic-tac-toe has no reference to analyse its games by"
    )
