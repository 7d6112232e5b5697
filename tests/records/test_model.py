"""The record format: envelope checked first, JSON/JSONL round trips, the published schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest

from referee.games.agent import RandomBot
from referee.games.thax import GAME
from referee.records.io import (
    RecordError,
    iter_jsonl,
    parse_record,
    parse_record_json,
    record_to_dict,
    record_to_json,
)
from referee.records.model import Player
from referee.schemas import render, schemas
from referee.tournament.play import GameSetup, play_game

ROOT = Path(__file__).resolve().parents[2]


def a_record():
    players = [Player(name="a", kind="bot", spec="random"), Player(name="b")]
    return play_game(GameSetup(GAME, GAME.ruleset(), players, "7"), [RandomBot(), RandomBot()])


def test_checked_in_schemas_match_the_models() -> None:
    """`referee schema` output is checked in; a model change must come with new schemas."""
    for name, schema in schemas().items():
        path = ROOT / "schemas" / name
        assert path.read_text(encoding="utf-8") == render(schema), f"run 'referee schema': {name}"


def test_written_records_satisfy_the_published_schema() -> None:
    """Other languages write records against the schema: what referee writes must pass it."""
    schema = schemas()["record.schema.json"]
    jsonschema.validate(record_to_dict(a_record()), schema)


def test_json_and_jsonl_round_trip() -> None:
    record = a_record()
    assert parse_record_json(record_to_json(record, indent=2)) == record
    lines = io.BytesIO((record_to_json(record) + "\n\n" + record_to_json(record) + "\n").encode())
    loaded = list(iter_jsonl(lines))
    assert [item.record for item in loaded] == [record, record]
    assert [item.line for item in loaded] == [1, 3]


@pytest.mark.parametrize(
    ("change", "code", "pointer"),
    [
        ({"format": "pgn"}, "format", "/format"),
        ({"version": 2}, "version", "/version"),
        ({"version": "1"}, "version", "/version"),
        ({"game": "chess"}, "game", "/game"),
        ({"players": [{"name": "solo"}]}, "schema", "/players"),
    ],
)
def test_envelope_and_game_are_checked_before_the_body(change, code, pointer) -> None:
    data = {**record_to_dict(a_record()), **change}
    with pytest.raises(RecordError) as raised:
        parse_record(data)
    assert (raised.value.code, raised.value.pointer) == (code, pointer)


def test_a_newer_version_is_named_as_newer() -> None:
    data = {**record_to_dict(a_record()), "version": 3}
    with pytest.raises(RecordError, match="newer"):
        parse_record(data)


def test_a_roll_out_of_range_is_pointed_at() -> None:
    data = record_to_dict(a_record())
    data["turns"][2]["roll"] = [7, 1]
    with pytest.raises(RecordError) as raised:
        parse_record(data)
    assert raised.value.pointer == "/turns/2/roll/0"


def test_defaults_are_left_out_but_the_envelope_and_draw_winner_stay() -> None:
    data = record_to_dict(a_record())
    assert list(data)[:3] == ["format", "version", "game"]
    assert "comment" not in data["turns"][0]
    assert "winner" in json.loads(record_to_json(a_record()))["result"]
