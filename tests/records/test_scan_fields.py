"""The header scan's structs (records/scan.py) have the record model's fields, types and
defaults, for every registered game, plug-ins included; a line of any registered game is read
by the scan itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

import referee.games
from referee.games import register_game, registered_names
from referee.records import scan
from referee.records.model import (
    RULESET_ID,
    EventInfo,
    MatchInfo,
    Player,
    Reason,
    Result,
    Turn,
    record_type,
)
from referee.records.scan import HeaderWithTurns, scan_line
from tests.plugins.test_plugin_game import GAME as TIC_TAC_TOE

NESTED: list[tuple[type[BaseModel], type[msgspec.Struct]]] = [
    (Player, scan.ScanPlayer),
    (EventInfo, scan.ScanEvent),
    (Result, scan.ScanResult),
    (MatchInfo, scan.ScanMatch),
]
"""Each header model and the struct the scan reads it into, field for field."""


@pytest.fixture(autouse=True)
def plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tic-tac-toe registered as a program would, on a copy of the registry."""
    monkeypatch.setattr(referee.games, "_plugins", dict(referee.games._plugins))
    register_game(TIC_TAC_TOE)
    yield


def _resolved(node: Any, defs: dict[str, Any]) -> Any:
    """A JSON Schema with its references filled in and what the two libraries word
    differently made one: no titles, descriptions or defaults (compared on their own), a
    constant as a one-value enum, an enum's values sorted and its type left implied."""
    if isinstance(node, list):
        return [_resolved(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _resolved(defs[node["$ref"].rpartition("/")[2]], defs)
    out = {
        key: _resolved(value, defs)
        for key, value in node.items()
        if key not in ("title", "description", "default")
    }
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if "enum" in out:
        out["enum"] = sorted(out["enum"], key=json.dumps)
        out.pop("type", None)
    if "anyOf" in out:
        out["anyOf"] = sorted(out["anyOf"], key=lambda kind: json.dumps(kind, sort_keys=True))
    if out.get("required") == []:
        del out["required"]
    return out


def _model_fields(model: type[BaseModel]) -> dict[str, tuple[bool, Any, Any]]:
    """Each field of a model: whether it is required, its default as JSON, its schema."""
    schema = model.model_json_schema()
    properties = _resolved(schema["properties"], schema.get("$defs", {}))
    fields = {}
    for name, info in model.model_fields.items():
        required = info.is_required()
        default = None if required else info.get_default(call_default_factory=True)
        fields[name] = (required, to_jsonable_python(default), properties[name])
    return fields


def _struct_fields(struct: type[msgspec.Struct]) -> dict[str, tuple[bool, Any, Any]]:
    """`_model_fields` of a msgspec struct."""
    schema = msgspec.json.schema(struct)
    defs = schema["$defs"]
    properties = _resolved(defs[schema["$ref"].rpartition("/")[2]]["properties"], defs)
    fields = {}
    for info in msgspec.structs.fields(struct):
        default = None
        if not info.required:
            made = info.default_factory() if info.default is msgspec.NODEFAULT else info.default
            default = msgspec.to_builtins(made)
        fields[info.name] = (info.required, default, properties[info.name])
    return fields


@pytest.mark.parametrize(("model", "struct"), NESTED, ids=lambda kind: kind.__name__)
def test_each_header_struct_has_its_models_fields(
    model: type[BaseModel], struct: type[msgspec.Struct]
) -> None:
    assert _struct_fields(struct) == _model_fields(model)
    assert struct.__struct_config__.forbid_unknown_fields


def test_the_header_has_the_fields_of_every_registered_games_record() -> None:
    """Every field of every game's record, with the same type and default, in one header;
    some told apart: the envelope (a default for a record made in code, named on every line:
    the full reader checks it before the model), the game (a literal for each record, any
    registered game for the scan: tested below), the ruleset (its pattern checked apart,
    once per text: tested in test_scan.py) and the turns (their own test)."""
    assert "tictactoe" in registered_names()
    header = _struct_fields(HeaderWithTurns)
    assert header.pop("game") == (True, None, {"type": "string"})
    ruleset = header.pop("ruleset")
    turns = header.pop("turns")
    envelope = {key: header.pop(key) for key in ("format", "version")}
    assert all(required for required, _, _ in envelope.values())
    seen = set()
    for name in registered_names():
        fields = _model_fields(record_type(name))
        assert fields.pop("game")[2] == {"enum": [name]}
        required, default, schema = fields.pop("ruleset")
        assert schema.pop("pattern") == RULESET_ID
        assert ruleset == (required, default, schema)
        assert turns[:2] == fields.pop("turns")[:2]
        for key, (_, _, schema) in envelope.items():
            assert fields.pop(key)[2] == schema
        assert {field: header.get(field) for field in fields} == fields  # None: not scanned
        seen |= set(fields)
    assert set(header) == seen


def test_a_turns_struct_field_is_the_models() -> None:
    """The scan reads a turn's seat, roll and move, and passes over its other fields."""
    turn = _struct_fields(scan.ScanTurn)
    model = _model_fields(Turn)
    assert {field: model[field] for field in turn} == turn
    assert not scan.ScanTurn.__struct_config__.forbid_unknown_fields


def test_a_registered_games_line_is_read_by_the_scan_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plug-in game's line is read like a built-in one's, without the full reader."""
    raw = json.dumps(
        {
            "format": "referee",
            "version": 1,
            "game": "tictactoe",
            "ruleset": "tictactoe/standard@1",
            "players": [{"name": "ann"}, {"name": "bob"}],
            "turns": [{"seat": 0, "move": "5"}],
            "result": {"winner": None, "points": 0, "reason": "rules"},
        }
    ).encode()
    scan_line(raw)  # the registry consulted once for the ruleset id
    monkeypatch.setattr(scan, "parse_record", None)  # the full reader: not called again
    for with_turns in (False, True):
        header = scan_line(raw, with_turns)
        assert (header.game, header.result) == ("tictactoe", scan.ScanResult(None, 0, Reason.RULES))


def test_a_game_nobody_registered_is_refused_where_it_is_named() -> None:
    raw = (
        b'{"format": "referee", "version": 1, "game": "sudoku", "ruleset": "sudoku/standard@1",'
        b' "players": [{"name": "a"}, {"name": "b"}]}'
    )
    with pytest.raises(scan.RecordError) as error:
        scan_line(raw)
    assert error.value.pointer == "/game"


WHOLE = [scan.WholeThax, scan.WholeTakhteh, scan.WholeTrax, scan.WholeThai]


def test_a_whole_turn_has_some_of_the_models_fields_each_as_the_model_has_it() -> None:
    """`read_whole` reads a turn of seat, roll, move and time, each checked as the model
    checks it, and refuses a turn with any other field (the model reads that one)."""
    turn = _struct_fields(scan.WholeTurn)
    model = _model_fields(Turn)
    assert set(turn) == {"seat", "roll", "move", "time_ms"}
    assert {field: model[field] for field in turn} == turn
    assert scan.WholeTurn.__struct_config__.forbid_unknown_fields


@pytest.mark.parametrize("struct", WHOLE, ids=lambda kind: kind.game)
def test_a_whole_record_reads_no_more_than_its_games_record_model(
    struct: type[msgspec.Struct],
) -> None:
    """A record `read_whole` reads is one the record model reads alike: each field of the
    struct is the model's, with its default, the envelope required where the model has a
    default (narrower), the ruleset's pattern checked apart (test_scan.py) and the turns as
    the test above; a field the model has and the struct not is refused by the struct."""
    name = struct.game  # type: ignore[attr-defined]
    assert struct.__struct_config__.forbid_unknown_fields
    assert struct.__struct_config__.tag == name
    fields = _struct_fields(struct)
    model = _model_fields(record_type(name))
    assert model.pop("game")[2] == {"enum": [name]}
    assert set(fields) == set(model)
    required, default, schema = model.pop("ruleset")
    assert schema.pop("pattern") == RULESET_ID
    assert fields.pop("ruleset") == (required, default, schema)
    assert fields.pop("turns")[:2] == model.pop("turns")[:2]
    for key in ("format", "version"):
        assert fields.pop(key) == (True, None, model.pop(key)[2])
    assert fields == model
