"""The plain Trax game list: reading (tokens, numbers, Resign, headers, places), writing, sniffing,
and the `trax` file format that maps it to records."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.trax import GAME, gamelist
from referee.players.registry import make_bot
from referee.records.formats import RECORD_FORMATS, detect_format, format_named
from referee.records.formats.trax_list import TraxListFormat, from_record
from referee.records.io import record_to_json
from referee.records.model import EventInfo, Player, Reason, Result, ThaxRecord, TraxRecord, Turn
from referee.tournament.play import GameSetup, play_game

FORMAT = format_named("trax")
MAT = Path(__file__).parents[2] / "fixtures" / "takhteh" / "standard-backgammon-7pt-two-games.mat"


def read(text: str) -> list:
    return list(FORMAT.read(io.BytesIO(text.encode())))


def only_game(text: str) -> gamelist.ListedGame:
    (game,) = gamelist.read_games(text.splitlines(keepends=True))
    assert isinstance(game, gamelist.ListedGame)
    return game


@pytest.mark.parametrize(
    "text",
    [
        "@0+ B1/ A2\\",
        "1. @0+ 2. B1/ 3. A2\\",
        "1.@0+ 2.B1/ 3.A2\\",
        "1 @0+ 2 B1/\n3 A2\\\n",
        "  @0+\tB1/\r\n  A2\\ \r\n",
        "# White: Ann\n@0+ B1/ # a comment\nA2\\",
    ],
)
def test_tokens_with_or_without_move_numbers(text: str) -> None:
    """White space separates tokens over any lines; move numbers (`1.`, `12`) are skipped."""
    assert [token.text for token in only_game(text).moves] == ["@0+", "B1/", "A2\\"]


def test_every_token_keeps_its_line_and_column() -> None:
    game = only_game("1. @0+ 2.B1/\n\t3. A2\\\n")
    assert [(t.line, t.column) for t in game.moves] == [(1, 4), (1, 10), (2, 5)]
    assert [(t.text, t.line, t.column) for t in game.numbers] == [
        ("1.", 1, 1),
        ("2.", 1, 8),
        ("3.", 2, 2),
    ]


@pytest.mark.parametrize("word", ["Resign", "RESIGN", "resign"])
def test_a_final_resign_is_the_player_to_move_resigning(word: str) -> None:
    """Three moves, then Resign: Black (to move) resigns, White (seat 0) wins."""
    (loaded,) = read(f"@0+ B1+ C1+ {word}\n")
    assert loaded.record.result == Result(winner=0, points=1, reason=Reason.RESIGN)
    (loaded,) = read("@0+ B1+ Resign")
    assert loaded.record.result.winner == 1


def test_a_token_after_resign_spoils_only_its_own_game() -> None:
    """A bad game becomes an error at its line; the next game is still read."""
    loaded = read("@0+ B1+\n\n@0+ Resign\nB1+\n\n@0/ A0/\n")
    assert loaded[0].record is not None
    assert loaded[1].record is None and loaded[1].error.code == "trax-list.after-resign"
    assert loaded[1].line == 4  # where the stray token is
    assert "column 1" in loaded[1].error.message
    assert loaded[2].record is not None and loaded[2].line == 6
    assert [item.number for item in loaded] == [1, 2, 3]


def test_headers_set_variant_players_event_and_tags() -> None:
    text = (
        "# Variant: 8x8\n# White: Ann Lee\n# Black: Bo\n# Event: Open\n# Date: 2024.05.01\n"
        "# Source: a book\n# just a remark\n@0/ @1/ @1/ C0/\n"
    )
    (loaded,) = read(text)
    record = loaded.record
    assert record.ruleset == "trax/8x8@1"
    assert [p.name for p in record.players] == ["Ann Lee", "Bo"]
    assert record.event == EventInfo(event="Open", date="2024.05.01")
    assert record.tags == {"Source": "a book"}
    assert loaded.turn_places == ((8, 1), (8, 5), (8, 9), (8, 13))


@pytest.mark.parametrize(("written", "variant"), [("LoopTrax", "looptrax"), ("8X8", "8x8")])
def test_the_variant_header_is_read_in_any_case(written: str, variant: str) -> None:
    (loaded,) = read(f"# variant: {written}\n@0+\n")
    assert loaded.record.ruleset == f"trax/{variant}@1"


def test_blocks_without_moves_are_comments_unless_they_name_a_variant() -> None:
    """A file may open with comments; a game of no moves is written with its Variant header."""
    loaded = read("# Games from a book\n# Source: x\n\n@0+ B1+\n\n# Variant: looptrax\n")
    assert [item.record.ruleset for item in loaded] == ["trax/standard@1", "trax/looptrax@1"]
    assert loaded[1].record.turns == []


def test_results_by_the_rules_come_from_replaying_the_game() -> None:
    """A game list has no result for games ended by the rules: the replay finds it."""
    loop, line, open_game, illegal = read(
        "@0/ B1\\ A2\\\n\n@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1+\n\n@0+ B1+\n\n@0+ Z9+\n"
    )
    assert loop.record.result == Result(winner=1, points=1, reason=Reason.RULES, detail="loop")
    assert line.record.result == Result(winner=1, points=1, reason=Reason.RULES, detail="line")
    assert open_game.record.result is None
    assert illegal.record.result is None  # the validator reports the move


@pytest.mark.parametrize(
    ("header", "result"),
    [
        ("white wins (time)", Result(winner=0, points=1, reason=Reason.TIME)),
        ("Black wins (illegal_move)", Result(winner=1, points=1, reason=Reason.ILLEGAL_MOVE)),
        ("draw (adjudicated)", Result(winner=None, points=0, reason=Reason.ADJUDICATED)),
    ],
)
def test_a_result_header_holds_results_the_tokens_cannot(header: str, result: Result) -> None:
    (loaded,) = read(f"# Result: {header}\n@0+ B1+\n")
    assert loaded.record.result == result


@pytest.mark.parametrize(
    "text", ["# Result: white won\n@0+", "# Result: draw (lucky)\n@0+", "# Result: x\n@0+ Resign"]
)
def test_a_bad_result_header_makes_the_game_unreadable(text: str) -> None:
    (loaded,) = read(text)
    assert loaded.record is None and loaded.error.code == "trax-list.result"


def test_canonical_form_wraps_tokens_after_the_headers() -> None:
    moves = ["@0+", "B1+", "C1\\"] * 30
    text = gamelist.format_game(moves, resign=True, headers={"Variant": "8x8"})
    lines = text.splitlines()
    assert lines[0] == "# Variant: 8x8"
    assert all(len(line) <= gamelist.LINE_WIDTH for line in lines)
    assert lines[-1].endswith("Resign")
    game = only_game(text)
    assert [t.text for t in game.moves] == moves and game.resign is not None


@pytest.mark.parametrize(
    "text",
    [
        "@0+ B1+ C1\\\n",
        "@0/",
        "1. @0/ 2. A0/ 3. B2/",
        "1.@0+ 2.B1+",
        "# Trax games\n# Variant: 8x8\n\n@0+ B1+ Resign\n",
        "\n\n  @0+   ",
    ],
)
def test_sniffing_knows_a_game_list(text: str) -> None:
    assert FORMAT.sniff(text.encode())


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        '{"format": "referee"}\n',
        "[1, 2]",
        '[Event "x"]\n1. 11-15 23-19 *\n',
        "B1+ @0+",
        "@0\\ A1+",
        "@0+ hello world\n",
        "The quick brown fox\n",
        "1. e4 e5 2. Nf3\n",
    ],
)
def test_sniffing_claims_nothing_else(text: str) -> None:
    assert not FORMAT.sniff(text.encode())


def test_sniffing_leaves_backgammon_match_files_alone() -> None:
    assert not FORMAT.sniff(MAT.read_bytes()[:4096])


def test_sniffing_ignores_a_token_cut_at_the_end_of_the_head() -> None:
    head = ("@0+ B1+ C1\\ " * 400).encode()[:4096]
    assert FORMAT.sniff(head + b"Z")


def test_a_txt_file_is_a_game_list_only_when_its_content_is_one() -> None:
    """`.trx` and `.trax` name the format; `.txt` is claimed only by content."""
    assert isinstance(detect_format(Path("games.trx"), b""), TraxListFormat)
    assert isinstance(detect_format(Path("games.trax"), b"anything"), TraxListFormat)
    assert isinstance(detect_format(Path("games.txt"), b"1. @0+ 2. B1/\n"), TraxListFormat)
    assert detect_format(Path("notes.txt"), b"remember the milk\n") is None
    assert "trax" in RECORD_FORMATS.names()


def test_writing_refuses_what_the_form_cannot_hold() -> None:
    players = [Player(name="a"), Player(name="b")]
    with pytest.raises(ValueError, match="Trax"):
        from_record(ThaxRecord(game="thax", ruleset="thax/standard@1", players=players))
    with pytest.raises(ValueError, match="ruleset"):
        from_record(TraxRecord(game="trax", ruleset="trax/standard@2", players=players))
    with pytest.raises(ValueError, match="header"):
        from_record(
            TraxRecord(game="trax", ruleset="trax/standard@1", players=players, tags={"White": "x"})
        )


def test_writing_several_games_separates_them_by_blank_lines() -> None:
    players = [Player(name="White"), Player(name="Black")]
    records = [
        TraxRecord(
            game="trax",
            ruleset="trax/standard@1",
            players=players,
            turns=[Turn(seat=0, move="@0+"), Turn(seat=1, move="B1+")],
        ),
        TraxRecord(
            game="trax",
            ruleset="trax/standard@1",
            players=players,
            turns=[Turn(seat=0, move="@0/")],
            result=Result(winner=0, points=1, reason=Reason.RESIGN),
        ),
    ]
    stream = io.StringIO()
    FORMAT.write(records, stream)
    assert stream.getvalue() == "@0+ B1+\n\n@0/ Resign\n"


NAMES = (
    st.text(
        # No control character (DEL, C1): a header is written with each as a space.
        st.characters(
            min_codepoint=33, max_codepoint=0x24F, exclude_characters="#", exclude_categories=["Cc"]
        ),
        min_size=1,
    )
    .map(str.strip)
    .filter(bool)
)
RESULTS = st.sampled_from(["none", "rules", "resign", "time", "draw", "detail"])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(GAME.variants),
    white=NAMES,
    black=NAMES,
    event=st.none() | NAMES,
    tags=st.dictionaries(st.from_regex(r"X[a-z0-9_-]{0,8}", fullmatch=True), NAMES, max_size=2),
    cut=st.integers(0, 400),
    ending=RESULTS,
)
def test_writing_then_reading_round_trips_records(
    seed: int,
    variant: str,
    white: str,
    black: str,
    event: str | None,
    tags: dict[str, str],
    cut: int,
    ending: str,
) -> None:
    """Any record the form can hold comes back as it was written."""
    players = [Player(name=white), Player(name=black)]
    played = play_game(
        GameSetup(GAME, GAME.ruleset(variant), players, str(seed)),
        [make_bot("trax", "random"), make_bot("trax", "random")],
    )
    turns = [Turn(seat=t.seat, move=t.move) for t in played.turns]
    result = played.result
    if ending != "rules" or result.reason != Reason.RULES:
        turns = turns[: min(cut, max(len(turns) - 1, 0))]
        seat_to_move = len(turns) % 2
        result = {
            "none": None,
            "rules": None,
            "resign": Result(winner=1 - seat_to_move, points=1, reason=Reason.RESIGN),
            "time": Result(winner=seat_to_move, points=1, reason=Reason.TIME),
            "draw": Result(winner=None, points=0, reason=Reason.ADJUDICATED, detail="turn cap"),
            "detail": Result(winner=0, points=1, reason=Reason.CRASH, detail="seat 1: exit 1"),
        }[ending]
    record = TraxRecord(
        game="trax",
        ruleset=f"trax/{variant}@1",
        players=players,
        event=EventInfo(event=event),
        turns=turns,
        result=result,
        tags=tags,
    )
    stream = io.StringIO()
    FORMAT.write([record], stream)
    (loaded,) = read(stream.getvalue())
    assert loaded.record is not None, (stream.getvalue(), loaded.error)
    assert record_to_json(loaded.record) == record_to_json(record)


@settings(max_examples=300)
@given(st.text(alphabet="@0123456789ABZ+/\\ \n\t#:.Resignx\u00e9", max_size=120))
def test_any_text_reads_without_raising(text: str) -> None:
    """Whatever the text, read yields a record or an error for each game, and never raises."""
    for item in read(text):
        assert (item.record is None) != (item.error is None)
