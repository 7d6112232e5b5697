"""`referee validate` reads each JSONL line whole first (records/scan.py, `read_whole`) and
reports a record so read valid when it replays to its declared result; the record model reads
every other line. Held here to the validation of every line by the record model alone: the
same reports, for files of random games of every game and variant, with engine output, a
comment or a match on some of them, as written and as damaged in the ways the fuzz tests
damage a file."""

from __future__ import annotations

import io
import json
import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.records.io import load_line, record_adapter, record_to_json
from referee.records.model import MatchInfo, Player
from referee.tournament.play import GameSetup, play_game_data
from referee.validator import check
from referee.validator.diagnostics import GameReport
from tests.fuzzing import damaged

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]


def _file(name: str, seed: int) -> bytes:
    """Three random games of `name` as JSONL: a variant each, a turn cap now and then, a
    comment or engine output on a turn now and then, a Takhteh game in a match now and then."""
    game = get_game(name)
    rng = random.Random(seed)
    lines = []
    for index in range(3):
        ruleset = game.ruleset(rng.choice(game.variants))
        cap = rng.choice([None, rng.randint(1, 60)])
        setup = GameSetup(game, ruleset, PLAYERS, f"whole-{seed}-{index}", turn_cap=cap)
        match = MatchInfo(length=3, game=1) if name == "takhteh" and rng.random() < 0.3 else None
        data = play_game_data(setup, [RandomBot(), RandomBot()], match=match)
        turns = data["turns"]
        for turn in turns:
            # The times measured vary from run to run; the file must not (hypothesis
            # draws its damage from it).
            turn["time_ms"] = rng.randint(0, 50)
        if turns and rng.random() < 0.3:
            extra = rng.choice([{"comment": "!"}, {"score": 0.5, "depth": 2}, {"clock_ms": 10}])
            turns[rng.randrange(len(turns))].update(extra)
        lines.append(record_to_json(record_adapter().validate_python(data)) + "\n")
    return "".join(lines).encode()


def _reports(content: bytes) -> list[dict[str, Any]]:
    reports: list[GameReport] = list(check.validate_stream(io.BytesIO(content), "f.jsonl", None))
    return [report.model_dump() for report in reports]


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_the_reports_are_those_of_the_record_model_alone(name: str, seed: int, data: Any) -> None:
    written = _file(name, seed)
    content = data.draw(st.one_of(st.just(written), damaged(written, ".jsonl")))
    quick = _reports(content)
    with mock.patch.object(check, "read_whole", lambda line: None):
        alone = _reports(content)
    assert quick == alone


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_a_line_is_judged_on_its_own_as_the_record_model_judges_it(
    name: str, seed: int, data: Any
) -> None:
    """`record_line_valid`, a tournament's check of each game it replays: the judgment of the
    record model and `validate_record`, line by line, on files as written and damaged."""
    written = _file(name, seed)
    content = data.draw(st.one_of(st.just(written), damaged(written, ".jsonl")))
    lines = [line for line in content.splitlines(keepends=True) if line.strip()]
    quick = [check.record_line_valid(line) for line in lines]
    with mock.patch.object(check, "read_whole", lambda line: None):
        alone = [check.record_line_valid(line) for line in lines]
    by_model = [check.validate_loaded("", load_line(1, 1, line)).valid for line in lines]
    assert quick == alone == by_model
    if content == written:
        assert all(quick)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_record_of_a_tournament_is_found_valid_without_the_record_model(name: str) -> None:
    """Random games as a tournament of built-in bots writes them (no engine output): each is
    read whole and valid, and the record model reads none of them."""
    game = get_game(name)
    lines = []
    for index in range(10):
        setup = GameSetup(game, game.ruleset(), PLAYERS, f"tournament-{index}")
        data = play_game_data(setup, [RandomBot(), RandomBot()])
        lines.append(record_to_json(record_adapter().validate_python(data)) + "\n")
    with mock.patch.object(check, "load_line", side_effect=AssertionError("read by the model")):
        reports = list(check.validate_stream(io.BytesIO("".join(lines).encode()), "f.jsonl", None))
    assert [(report.game, report.valid) for report in reports] == [(n, True) for n in range(1, 11)]


HOSTILE: list[Any] = [
    -1,
    0,
    1,
    2,
    7,
    2**53 - 1,
    2**53,
    2**64,
    1.0,
    0.5,
    True,
    False,
    None,
    "",
    "x",
    "referee",
    "thax/standard@1",
    [],
    [1],
    [1, 2],
    [1, 2, 3],
    [[1, 2]],
    {},
    {"name": "a"},
    "n" * 257,
    "n" * 4097,
    *(f"{name}/standard@{number}" for name in GAME_NAMES for number in ("01", "1\n", "1?a#")),
    # The model's pattern refuses a space; Takhteh reads its option with `int`, which does not.
    "takhteh/standard@1?match=3",
    "takhteh/standard@1?match= 3",
]
"""Values each field is set to in turn: of every JSON type, at and beyond the bounds of the
record model's fields."""


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside `value`, and of a field added to each object."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        found.append((*path, "added"))
        for key, item in value.items():
            found.append((*path, key))
            found.extend(_paths(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((*path, index))
            found.extend(_paths(item, (*path, index)))
    return found


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_field_of_a_record_set_to_each_hostile_value_is_judged_alike(name: str) -> None:
    """Every field of a record (its first two turns among its turns) and a field added to
    each of its objects, set to each of `HOSTILE` in turn: the same report as the record
    model's alone, which reads none of the records `read_whole` refuses."""
    game = get_game(name)
    setup = GameSetup(game, game.ruleset(), PLAYERS, "hostile")
    match = MatchInfo(length=3, game=1) if name == "takhteh" else None
    data = play_game_data(setup, [RandomBot(), RandomBot()], match=match)
    data["event"] = {"event": "e", "game_number": 1}
    data["tags"] = {"site": "s"}
    data["turns"] = data["turns"][:2]
    data["result"] = {"winner": None, "points": 0, "reason": "adjudicated", "detail": "d"}
    paths = [path for path in _paths(data) if path[:2] not in [("turns", n) for n in range(2, 9)]]
    lines = []
    for path in paths:
        for value in HOSTILE:
            changed = json.loads(json.dumps(data))
            node = changed
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            lines.append(json.dumps(changed))
    content = ("\n".join(lines) + "\n").encode()
    quick = _reports(content)
    with mock.patch.object(check, "read_whole", lambda line: None):
        alone = _reports(content)
    assert len(quick) == len(lines)
    assert quick == alone
    assert sum(report["valid"] for report in quick) > len(paths)


def test_json_nested_too_deep_for_the_decoder_is_left_to_the_record_model() -> None:
    deep = ('{"a":' * 100_000 + "1" + "}" * 100_000 + "\n").encode()
    assert _reports(deep)[0]["diagnostics"][0]["code"] == "json"
