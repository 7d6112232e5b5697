"""A tournament writes its records as JSON data it builds by hand (tournament/play.py
`record_data`): held here to the record model's fields, in the model's order."""

from __future__ import annotations

from referee.games import get_game
from referee.records.io import record_to_dict
from referee.records.model import (
    EventInfo,
    MatchInfo,
    Player,
    Reason,
    Result,
    TakhtehRecord,
    record_adapter,
)
from referee.tournament.openings import Opening
from referee.tournament.play import GameSetup, History, record_data

ENVELOPE = ("format", "version", "game")
NOT_WRITTEN = {"tags"}
"""What a tournament's record never holds: it has no tags."""


def test_record_data_writes_every_field_of_the_model_in_its_order() -> None:
    """Every part given (Takhteh's record has every field there is): the keys are the
    model's, as `record_to_dict` writes them. A field added to the model fails here until
    `record_data` writes it, or it is named in NOT_WRITTEN."""
    game = get_game("takhteh")
    turns = History()
    turns.append({"seat": 0, "roll": [3, 1], "move": "24/21 24/23"})
    setup = GameSetup(
        game=game,
        ruleset=game.ruleset(),
        players=[Player(name="ann", kind="bot"), Player(name="bob")],
        seed="1",
        event=EventInfo(event="Club Cup", pairing=3),
        book=Opening(start="a position", moves=()),
    )
    data = record_data(
        setup,
        turns=turns,
        result=Result(winner=0, points=2, reason=Reason.RESIGN),
        opening_rolls=[[3, 1]],
        match=MatchInfo(length=5, game=2, score=[1, 0], first=0),
    )
    body = [name for name in TakhtehRecord.model_fields if name not in ENVELOPE]
    assert list(data) == [*ENVELOPE, *(name for name in body if name not in NOT_WRITTEN)]
    assert record_to_dict(record_adapter().validate_python(data)) == data
