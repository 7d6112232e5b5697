"""Engine output and clocks in turns (issue 15): `clock_ms`, `score`, `depth`, `nodes` and `pv`
survive the referee JSON formats and PDN (as comment commands); the record refuses bad ones."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from referee.games.agent import RandomBot
from referee.games.thai import GAME
from referee.records.formats import format_named
from referee.records.model import Player, Record, ThaiRecord, Turn
from referee.tournament.play import GameSetup, play_game

scores = st.one_of(
    st.integers(-(10**12), 10**12), st.floats(allow_nan=False, allow_infinity=False, width=64)
)
engine_output = st.fixed_dictionaries(
    {},
    optional={
        "time_ms": st.integers(0, 10**7),
        "clock_ms": st.integers(0, 10**8),
        "score": scores,
        "depth": st.integers(0, 500),
        "nodes": st.integers(0, 10**15),
        "pv_length": st.integers(1, 6),
    },
)


def with_output(seed: int, outputs: list[dict]) -> ThaiRecord:
    """A Thai game of random moves, its turns given `outputs` in turn (the pv: the game's own
    next moves, as a bot would expect them)."""
    players = [Player(name="a", kind="bot", spec="random"), Player(name="b", kind="bot")]
    record = play_game(
        GameSetup(GAME, GAME.ruleset(), players, str(seed)), [RandomBot(), RandomBot()]
    )
    moves = [turn.move for turn in record.turns]
    turns = []
    for index, turn in enumerate(record.turns):
        fields = dict(outputs[index % len(outputs)]) if outputs else {}
        length = fields.pop("pv_length", None)
        if length is not None:
            fields["pv"] = moves[index : index + length]
        turns.append(turn.model_copy(update=fields))
    result = record.model_copy(update={"turns": turns})
    assert isinstance(result, ThaiRecord)
    return result


def round_trip(record: Record, format_name: str) -> Record:
    file_format = format_named(format_name)
    assert file_format is not None
    out = io.StringIO()
    file_format.write([record], out)
    (loaded,) = file_format.read(io.BytesIO(out.getvalue().encode("utf-8")))
    assert loaded.error is None and loaded.record is not None
    return loaded.record


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), outputs=st.lists(engine_output, max_size=5))
def test_engine_output_survives_json_jsonl_and_pdn(seed: int, outputs: list[dict]) -> None:
    record = with_output(seed, outputs)
    assert round_trip(record, "json") == record
    assert round_trip(record, "jsonl") == record
    back = round_trip(record, "pdn")
    for turn, read in zip(record.turns, back.turns, strict=True):
        assert read.model_dump() == turn.model_dump()


def test_pdn_writes_engine_output_as_commands_in_the_move_comment() -> None:
    turn = Turn(seat=0, move="22-18", time_ms=512, clock_ms=3_723_004, score=-35, depth=12)
    turn = turn.model_copy(update={"nodes": 4711, "pv": ["22-18", "11-15"], "comment": "sharp"})
    record = ThaiRecord(game="thai", ruleset="thai/standard@1", players=_players(), turns=[turn])
    out = io.StringIO()
    pdn = format_named("pdn")
    assert pdn is not None
    pdn.write([record], out)
    assert (
        "{[%emt 0.512] [%clk 1:02:03.004] [%eval -35] [%depth 12] [%nodes 4711] "
        "[%pv 22-18 11-15] sharp}"
    ) in " ".join(out.getvalue().split())
    # A pv PDN cannot hold (a bracket in a move) is left out, the rest is kept.
    odd = turn.model_copy(update={"pv": ["22-18]", "x"]})
    out = io.StringIO()
    pdn.write([record.model_copy(update={"turns": [odd]})], out)
    assert "%pv" not in out.getvalue() and "[%nodes 4711]" in out.getvalue()


def test_pdn_commands_that_do_not_read_stay_in_the_comment() -> None:
    text = (
        '[GameType "31"]\n1. 22-18 {[%eval high] [%depth -3] [%nodes 7] [%clk 1e999] ok} 11-15 *\n'
    )
    pdn = format_named("pdn")
    assert pdn is not None
    (loaded,) = pdn.read(io.BytesIO(text.encode()))
    assert loaded.record is not None
    turn = loaded.record.turns[0]
    assert (turn.score, turn.depth, turn.nodes, turn.clock_ms) == (None, None, 7, None)
    assert turn.comment == "[%eval high] [%depth -3]  [%clk 1e999] ok"


@pytest.mark.parametrize(
    "fields",
    [
        {"score": float("nan")},
        {"score": float("inf")},
        {"score": True},
        {"score": "35"},
        {"depth": -1},
        {"nodes": 2.5},
        {"clock_ms": -5},
        {"pv": "22-18 11-15"},
    ],
)
def test_a_turn_refuses_engine_output_of_the_wrong_shape(fields: dict) -> None:
    with pytest.raises(ValidationError):
        Turn.model_validate({"seat": 0, "move": "22-18", **fields})


def _players() -> list[Player]:
    return [Player(name="b"), Player(name="w")]
