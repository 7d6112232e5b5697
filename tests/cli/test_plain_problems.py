"""Pydantic's validation errors reach the user in plain words, one line naming the field:
records, tournament configurations and tournament.json alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from typer.testing import CliRunner

from referee.cli.app import app
from referee.errors import plain_problem

runner = CliRunner()
PYDANTIC_WORDS = (
    "Input should",
    "after validation",
    "Field required",
    "Extra inputs",
    "validation error",
    "errors.pydantic.dev",
    "[type=",
    "Value error,",
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: Annotated[int, Field(ge=1, le=9)] = 1
    ratio: float = 0.5
    names: Annotated[list[str], Field(min_length=2, max_length=3)] = ["a", "b"]
    kind: Literal["one", "two"] = "one"
    flag: bool = False
    label: Annotated[str, Field(max_length=4)] = "x"


VALUES = st.one_of(
    st.integers(-5, 20),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.booleans(),
    st.none(),
    st.lists(st.text(max_size=2), max_size=5),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@given(st.dictionaries(st.sampled_from([*_Model.model_fields, "other"]), VALUES, max_size=4))
def test_every_problem_is_plain_words(data: dict[str, object]) -> None:
    try:
        _Model.model_validate(data)
    except ValidationError as error:
        for detail in error.errors():
            text = plain_problem(dict(detail))
            assert text and "\n" not in text
            assert not any(word in text for word in PYDANTIC_WORDS), (detail, text)


def _one_line(result: object, *said: str) -> None:
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code in (1, 2), output  # type: ignore[attr-defined]
    assert not any(word in output for word in PYDANTIC_WORDS), output
    assert all(text in output for text in said), output


def test_a_record_with_one_player(tmp_path: Path) -> None:
    record = {
        "format": "referee",
        "version": 1,
        "game": "thai",
        "ruleset": "thai/standard@1",
        "players": [{"name": "a", "kind": "bot"}],
        "turns": [],
    }
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n")
    result = runner.invoke(app, ["validate", str(path)])
    _one_line(result, "[schema] /players: needs 2 or more items, not 1")


def test_a_configuration_names_the_field_and_says_why(tmp_path: Path) -> None:
    out = str(tmp_path / "t")
    result = runner.invoke(
        app, ["tournament", "run", "--game", "thai", "--bots", "random", "--out", out]
    )
    _one_line(result, "referee: error: bots: needs 2 or more items, not 1")
    path = tmp_path / "c.toml"
    bots = '[{name="a", spec="random"}, {name="b", spec="random", colour=1}]'
    path.write_text(f'game = "thai"\nbots = {bots}\n')
    result = runner.invoke(app, ["tournament", "run", "--config", str(path), "--out", out])
    _one_line(result, f"referee: error: {path}: bots.1.colour: unknown field")
    path.write_text(f'game = "thai"\nbots = {bots}\nseed = [1]\n'.replace(", colour=1", ""))
    result = runner.invoke(app, ["tournament", "run", "--config", str(path), "--out", out])
    _one_line(result, f"referee: error: {path}: seed: must be text, not [1]")


def test_a_tournament_file_without_its_fields_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "tournament.json").write_text('{"version": 1, "id": "x"}')
    result = runner.invoke(app, ["tournament", "resume", str(tmp_path)])
    _one_line(result, "tournament.json: not a tournament file: created: missing")
    assert len(result.output.strip().splitlines()) == 1
