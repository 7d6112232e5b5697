"""Reading paths: tournament folders and record files in any mix, filters, and clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ratings.errors import RatingsError, RatingsInputError
from referee.ratings.output import render
from referee.ratings.results import read_games
from referee.ratings.table import RatingOptions, build_tables
from referee.records.io import record_to_dict
from tests.ratings.helpers import games_from_records, record
from tests.records.helpers import write_jsonl, write_record


def _tournament(folder, records):
    folder.mkdir()
    write_jsonl(folder / "games.jsonl", records)
    (folder / "tournament.json").write_text("{}\n")
    return folder


def test_folders_and_record_files_mix_and_group_by_game_and_variant(tmp_path):
    """Protects path handling and grouping: a tournament folder, a .jsonl file, a .json file
    with one record and one with an array are all read, and tables come per (game, variant)."""
    folder = _tournament(tmp_path / "t1", [record("A", "B", 0), record("B", "A", 0)])
    write_jsonl(tmp_path / "more.jsonl", [record("A", "B", 0, game="trax", variant="8x8")])
    write_record(tmp_path / "one.json", record("A", "B", 1, game="trax"))
    array = [record_to_dict(record("B", "A", None, game="trax")) for _ in range(2)]
    (tmp_path / "many.json").write_text(json.dumps(array))
    games = read_games(
        [folder, tmp_path / "more.jsonl", tmp_path / "one.json", tmp_path / "many.json"]
    )
    assert len(games.frame) == 6
    tables = build_tables(games)
    assert [(t.game, t.variant, t.games) for t in tables] == [
        ("thax", "standard", 2),
        ("trax", "8x8", 1),
        ("trax", "standard", 3),
    ]


def test_a_file_named_twice_is_read_once(tmp_path):
    """Protects against double counting: a folder and its own games.jsonl name one file."""
    folder = _tournament(tmp_path / "t", [record("A", "B", 0)])
    games = read_games([folder, folder / "games.jsonl"])
    assert len(games.frame) == 1


def test_filters_select_game_variant_and_bots(tmp_path):
    """Protects the filters: by game, by variant, and by bots (games among the named ones)."""
    records = [
        record("A", "B", 0),
        record("A", "C", 0),
        record("B", "C", 0),
        record("A", "B", 0, game="trax"),
        record("A", "B", 0, game="trax", variant="8x8"),
    ]
    write_jsonl(tmp_path / "g.jsonl", records)
    path = [tmp_path / "g.jsonl"]
    assert len(read_games(path, game="trax").frame) == 2
    assert len(read_games(path, game="trax", variant="8x8").frame) == 1
    assert len(read_games(path, variant="standard").frame) == 4
    among = read_games(path, game="thax", bots=["A", "B"]).frame
    assert list(zip(among["seat0"], among["seat1"], strict=True)) == [("A", "B")]


def test_unfinished_games_are_counted_by_game_and_variant(tmp_path):
    """Protects the count of unfinished games kept beside the frame."""
    records = [record("A", "B", 0), record("A", "B", 0, finished=False)]
    records.append(record("A", "B", 0, game="trax", finished=False))
    write_jsonl(tmp_path / "g.jsonl", records)
    games = read_games([tmp_path / "g.jsonl"])
    assert games.unfinished == {("thax", "standard"): 1, ("trax", "standard"): 1}
    assert len(games.frame) == 1


def _bad_path(tmp_path, kind):
    if kind == "missing":
        return tmp_path / "missing.jsonl"
    if kind == "folder-without-games":
        (tmp_path / "empty").mkdir()
        return tmp_path / "empty"
    if kind == "truncated-json":
        (tmp_path / "bad.jsonl").write_text('{"format": "referee",\n')
        return tmp_path / "bad.jsonl"
    (tmp_path / "notes.txt").write_text("hello\n")
    return tmp_path / "notes.txt"


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("missing", "no such file or folder"),
        ("folder-without-games", "not a tournament folder"),
        ("truncated-json", "cut short"),
        ("not-records", "not a game record file"),
    ],
)
def test_bad_input_raises_one_line_error_naming_the_file(tmp_path, kind, message):
    """Protects the CLI's error path: bad input raises RatingsInputError (never another
    exception) whose one-line message names the file and says what is wrong."""
    path = _bad_path(tmp_path, kind)
    with pytest.raises(RatingsInputError) as caught:
        read_games([path])
    text = str(caught.value)
    assert str(path) in text
    assert message in text
    assert "\n" not in text


def test_invalid_record_names_file_line_and_field(tmp_path):
    """Protects the message for a record that is JSON but not a valid record: the file, the
    line, the record number and the bad field."""
    good = json.dumps(record_to_dict(record("A", "B", 0)))
    unknown = dict(record_to_dict(record("A", "B", 0)), game="chess")
    (tmp_path / "g.jsonl").write_text(good + "\n\n" + json.dumps(unknown) + "\n")
    with pytest.raises(RatingsInputError) as caught:
        read_games([tmp_path / "g.jsonl"])
    error = caught.value
    assert error.path == str(tmp_path / "g.jsonl")
    assert error.line == 3
    assert "record 2" in error.message and "unknown game 'chess'" in error.message


def test_bad_options_and_unknown_anchor_raise_ratings_error(tmp_path):
    """Protects the option checks the CLI relies on for its messages."""
    write_jsonl(tmp_path / "g.jsonl", [record("A", "B", 0)])
    games = read_games([tmp_path / "g.jsonl"])
    with pytest.raises(RatingsError, match="'Z' played none of the games"):
        build_tables(games, RatingOptions(anchor="Z"))
    with pytest.raises(RatingsError, match="prior"):
        build_tables(games, RatingOptions(prior=0))
    with pytest.raises(RatingsError, match="bootstrap samples"):
        build_tables(games, RatingOptions(samples=5, interval="bootstrap"))
    with pytest.raises(RatingsError, match="seed"):
        build_tables(games, RatingOptions(seed=-1))
    with pytest.raises(RatingsError, match="advantage"):
        build_tables(games, RatingOptions(advantage=float("nan")))
    with pytest.raises(RatingsError, match="'Y' played none"):
        build_tables(games, RatingOptions(anchors=(("A", 0.0), ("Y", 10.0))))


def test_a_tournament_without_finished_games_gives_no_table(tmp_path):
    """Protects a fresh or running tournament: no finished game means no table (not an
    error), the unfinished ones are counted, and CSV still writes its header."""
    folder = _tournament(tmp_path / "t", [record("A", "B", 0, finished=False)])
    games = read_games([folder])
    assert build_tables(games) == []
    assert games.unfinished == {("thax", "standard"): 1}
    assert render([], "csv").startswith("game,variant,rank,bot,")


def test_huge_points_are_an_input_error_not_an_overflow(tmp_path):
    """Regression (issue 16): a .mat game won with 10^20 points made `ratings` overflow
    int64 with a traceback; it is now a one-line error naming the file and line."""
    text = (
        " 3 point match\n\n Game 1\n alice : 0                      bob : 0\n"
        "  1) 31: 8/5 6/5\n      Wins 99999999999999999999 points\n"
    )
    path = tmp_path / "huge.mat"
    path.write_text(text)
    with pytest.raises(RatingsInputError, match=r"huge\.mat:3: .*points") as caught:
        read_games([path])
    assert "\n" not in str(caught.value)


_ELO = st.one_of(
    st.floats(-4000, 4000, allow_nan=False),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e5, -1e5, 1.7e5, 1e300, -1e308]),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("ABC"), _ELO), max_size=3),
    st.one_of(st.none(), _ELO),
    st.sampled_from(["robust", "information", "bootstrap"]),
    st.lists(
        st.tuples(st.sampled_from("ABC"), st.sampled_from("ABC"), st.sampled_from([0, 1, None])),
        min_size=1,
        max_size=8,
    ),
)
def test_any_finite_anchors_and_advantage_give_a_table_or_a_ratings_error(
    anchors: list[tuple[str, float]],
    advantage: float | None,
    interval: str,
    games: list[tuple[str, str, int | None]],
) -> None:
    """Protects the CLI from a traceback on hostile option values: anchors and a first-move
    advantage of any finite size either rate the games or say why they cannot."""
    frame = games_from_records([record(a, b, winner) for a, b, winner in games])
    options = RatingOptions(anchors=tuple(anchors), advantage=advantage, interval=interval)  # type: ignore[arg-type]
    try:
        tables = build_tables(frame, options)
    except RatingsError:
        return
    for table in tables:
        render([table], "markdown")
