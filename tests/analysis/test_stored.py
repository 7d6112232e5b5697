"""Analysis files read back (referee/analysis/stored.py): what `referee analyse --out` wrote
reads as it was written, and a damaged or hand-edited line is one error naming its file and
line, whatever its bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.analysis.stored import AnalysisFileError, read_analysis_file
from tests.cli.commands import THAX, referee


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("stored") / "a.jsonl"
    made = referee("analyse", str(THAX), "--format", "json", "--out", str(out))
    assert made.returncode == 0, made.stderr
    return out.read_text().splitlines()


def test_each_line_reads_back_with_its_figures(written: list[str], tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(written) + "\n\n")  # a blank line is passed over
    back = list(read_analysis_file(path))
    assert len(back) == len(written)
    for stored, line in zip(back, written, strict=True):
        data = json.loads(line)
        assert stored.adjusted == data["adjusted"]
        assert stored.players == data["players"]
        assert [seat.luck for seat in stored.seats] == [seat["luck"] for seat in data["seats"]]
        assert [turn.error for turn in stored.turns] == [turn["error"] for turn in data["turns"]]


def edited(line: str, change: str) -> str:
    data = json.loads(line)
    if change == "luck":
        data["seats"][0]["luck"] += 0.25
    elif change == "order":
        data["turns"][0]["turn"] = 2
    elif change == "type":
        data["seats"][1]["blunders"] = "two"
    elif change == "infinite":
        return line.replace('"error_total":', '"error_total":1e999,"x":', 1)
    elif change == "adjusted":
        data["adjusted"] = None
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("luck", "adjusted result is not its result less the seats' net luck"),
        ("order", "turns are not numbered"),
        ("type", "Expected `int`"),
        ("infinite", "Number out of range"),
        ("adjusted", "a result without an adjusted result"),
    ],
)
def test_an_edited_line_is_one_error_at_its_line(
    written: list[str], tmp_path: Path, change: str, says: str
) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(written[0] + "\n" + edited(written[1], change) + "\n")
    with pytest.raises(AnalysisFileError) as raised:
        list(read_analysis_file(path))
    message = str(raised.value)
    assert message.startswith(f"{path}:2: not a game's analysis: ")
    assert says in message and "\n" not in message


def test_a_missing_file_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(AnalysisFileError, match="cannot read the analysis file"):
        list(read_analysis_file(tmp_path / "none.jsonl"))


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(min_value=0, max_value=2000), junk=st.binary(max_size=40))
def test_any_damage_reads_or_is_one_error(
    written: list[str], tmp_path_factory: pytest.TempPathFactory, cut: int, junk: bytes
) -> None:
    raw = written[0].encode()
    cut = min(cut, len(raw))
    path = tmp_path_factory.mktemp("damage") / "a.jsonl"
    path.write_bytes(raw[:cut] + junk + raw[cut:] + b"\n")
    try:
        back = list(read_analysis_file(path))
    except AnalysisFileError as error:
        assert str(error).startswith(f"{path}:1: not a game's analysis: ")
        assert "\n" not in str(error)
    else:
        assert len(back) <= 1
