"""The record format: envelope checked first, JSON/JSONL round trips, the published schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


TEXT = st.text(st.sampled_from(["a", " ", "é", "😀", "\ud800", "\udfff", "\udcff", "\\", '"']))
"""Text with lone surrogates among other characters, escaped and not."""


@settings(max_examples=200, deadline=None)
@given(move=TEXT, comment=TEXT, name=TEXT)
def test_the_json_and_python_paths_refuse_exactly_the_texts_utf8_cannot_hold(
    move: str, comment: str, name: str
) -> None:
    """Text fields hold what UTF-8 can encode: a lone surrogate is refused, with the same
    message, whether a record is read from JSON text (pydantic's parser refuses it there) or
    from Python data (the model's own check)."""
    data = record_to_dict(a_record())
    data["turns"][0]["move"] = move
    data["turns"][1]["comment"] = comment
    data["players"][0]["name"] = "x" + name
    # The data as JSON reads it back: two escapes of a high and a low surrogate in a row are
    # one character there, as every JSON reader takes them.
    text = json.dumps(data)
    data = json.loads(text)
    fields = {
        "/turns/0/move": data["turns"][0]["move"],
        "/turns/1/comment": data["turns"][1]["comment"],
        "/players/0/name": data["players"][0]["name"],
    }

    def holdable(value: str) -> bool:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True

    refused = [pointer for pointer, value in fields.items() if not holdable(value)]
    outcomes = []
    for read in (lambda: parse_record_json(text), lambda: parse_record(data)):
        try:
            record = read()
        except RecordError as error:
            outcomes.append((error.pointer, error.message))
        else:
            assert record.turns[0].move == fields["/turns/0/move"]
            assert record.players[0].name == fields["/players/0/name"]
            outcomes.append(None)
    assert outcomes[0] == outcomes[1]
    if not refused:
        assert outcomes[0] is None
    else:
        assert outcomes[0] is not None
        pointer, message = outcomes[0]
        assert pointer in refused
        # A name's length is checked first, by pydantic, which words the refusal itself.
        said = "unable to parse raw data as a unicode string" if "name" in pointer else "UTF-16"
        assert said in message


def test_defaults_are_left_out_but_the_envelope_and_draw_winner_stay() -> None:
    data = record_to_dict(a_record())
    assert list(data)[:3] == ["format", "version", "game"]
    assert "comment" not in data["turns"][0]
    assert "winner" in json.loads(record_to_json(a_record()))["result"]
