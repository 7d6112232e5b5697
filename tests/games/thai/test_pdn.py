"""PDN (GameType 31): the lenient reader, the canonical writer, the mapping to records, and
the validator pointing at the line of a bad move."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.thai.pdn import GAME_TYPE, PdnGame, PdnMove, read_game, read_games, write_game
from referee.records.formats import detect_format, format_named
from referee.records.formats.thai_pdn import PdnFormat, record_to_pdn
from referee.records.io import Loaded
from referee.records.model import EventInfo, Player, Reason, Result, ThaiRecord, Turn
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_file
from tests.games.thai.helpers import GAME, RULESET

FORMAT = format_named("pdn")

GAME_TEXT = """\
[Event "Club night"]
[Site "Bangkok THA"]
[Date "2024.05.01"]
[Round "3"]
[White "Somchai"]
[Black "Niran"]
[Result "2-0"]
[GameType "31,B,8,8,N2,0"]
[Annotator "Lek"]

{Opening} 1. 26-22 {good} 7-11 2. 22-18! $1 (2. 31-26 3-7) 11-15?
3. 18x11 6x15 2-0
"""


def load(text: str | bytes) -> list[Loaded]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(FORMAT.read(io.BytesIO(data)))


# -- the reader ----------------------------------------------------------------------------------


def test_reader_reads_tags_moves_comments_and_places() -> None:
    game = read_game(GAME_TEXT)
    assert game is not None
    assert game.tags["Black"] == "Niran"
    assert game.tags["GameType"] == GAME_TYPE
    assert [m.text for m in game.moves] == ["26-22", "7-11", "22-18", "11-15", "18x11", "6x15"]
    assert [m.number for m in game.moves] == [1, None, 2, None, 3, None]
    assert game.comments == ["Opening"]
    assert game.moves[0].comments == ["good"]
    assert (game.moves[2].line, game.moves[2].column) == (11, 35)
    assert (game.moves[4].line, game.moves[4].column) == (12, 4)
    assert game.result == "2-0"
    assert game.line == 1
    assert game.error is None


def test_reader_is_lenient() -> None:
    text = (
        "\ufeff% an escaped line\n"
        "1.26-22 ; rest of line comment\n"
        "1... 7-11 2.22-18(!) 11-15 {a comment\nover two lines} 3. 18x11 $2 6x15\n"
        '[Event "next"]\n'
        "1. 25-21 *\n"
    )
    games = list(read_games(text.splitlines()))
    assert len(games) == 2
    first, second = games
    assert [m.text for m in first.moves] == ["26-22", "7-11", "22-18", "11-15", "18x11", "6x15"]
    assert first.moves[0].comments == ["rest of line comment"]
    assert first.moves[3].comments == ["a comment\nover two lines"]
    assert first.result is None
    assert second.tags == {"Event": "next"} and second.result == "*"


def test_reader_reports_syntax_errors_and_goes_on_with_the_next_game() -> None:
    text = '[Event "a"]\n[Broken tag]\n1. 26-22 *\n[Event "b"]\n1. 26-22 {never closed\n'
    first, second = read_games(text.splitlines())
    assert first.error is not None and first.error.line == 2
    assert second.error is not None and "never closed" in second.error.message


# -- the writer ----------------------------------------------------------------------------------


def test_writer_is_canonical() -> None:
    game = PdnGame(
        tags={"White": "W", "Black": "B", "Annotator": "x"},
        moves=[PdnMove("26-22", comments=["c"]), PdnMove("7-11"), PdnMove("22-18")],
        result="1-1",
    )
    assert write_game(game) == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "W"]\n[Black "B"]\n'
        '[Result "1-1"]\n[GameType "31,B,8,8,N2,0"]\n[Annotator "x"]\n\n'
        "1. 26-22 {c} 7-11 2. 22-18 1-1\n\n"
    )


def test_writer_numbers_a_game_that_white_starts() -> None:
    game = PdnGame(tags={"FEN": "W:W10:B22"}, moves=[PdnMove("10-14"), PdnMove("22-17")])
    assert "1... 10-14 2. 22-17 *" in write_game(game)


def test_writer_keeps_lines_within_80_characters() -> None:
    moves = [PdnMove(t) for t in ["26-22", "7-11"] * 40]
    text = write_game(PdnGame(moves=moves))
    assert max(len(line) for line in text.splitlines()) <= 80


def test_writer_refuses_what_pdn_cannot_hold() -> None:
    with pytest.raises(ValueError, match="comment"):
        write_game(PdnGame(moves=[PdnMove("26-22", comments=["a } b"])]))
    with pytest.raises(ValueError, match="result"):
        write_game(PdnGame(result="3-0"))


# -- PDN to records ------------------------------------------------------------------------------


def test_black_is_seat_0_and_results_are_written_from_blacks_side() -> None:
    (loaded,) = load(GAME_TEXT)
    record = loaded.record
    assert isinstance(record, ThaiRecord)
    assert record.players[0].name == "Niran"  # Black, who moves first
    assert record.players[1].name == "Somchai"
    assert [turn.seat for turn in record.turns] == [0, 1, 0, 1, 0, 1]
    assert record.result is not None and record.result.winner == 0
    assert record.ruleset == "thai/standard@1"
    assert record.event == EventInfo(
        event="Club night", site="Bangkok THA", date="2024.05.01", round="3"
    )
    assert record.tags == {"Annotator": "Lek", "Comment": "Opening"}
    assert record.turns[0].comment == "good"
    assert loaded.turn_places[4] == (12, 4)


@pytest.mark.parametrize(
    ("token", "winner"),
    [("2-0", 0), ("1-0", 0), ("0-2", 1), ("0-1", 1), ("1-1", None), ("1/2-1/2", None)],
)
def test_result_tokens(token: str, winner: int | None) -> None:
    (loaded,) = load(f'[Result "{token}"]\n1. 26-22 7-11 {token}\n')
    assert loaded.record is not None and loaded.record.result is not None
    assert loaded.record.result.winner == winner
    assert loaded.record.result.points == (0 if winner is None else 1)


def test_no_result_is_no_result() -> None:
    (loaded,) = load("1. 26-22 7-11 *\n")
    assert loaded.record is not None and loaded.record.result is None


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ('[Event "e"]\n[GameType "20"]\n1. 32-28 *\n', "pdn.game-type", 2),
        ('[GameType "31,W,8,8,N1,0"]\n1. 26-22 *\n', "pdn.game-type", 1),
        ('[Event "e"]\n\n[Result "2-0"]\n1. 26-22 0-2\n', "pdn.result-mismatch", 3),
        ("1. 26-22 0-0\n", "pdn.result", 1),
        ('[Event "e"]\n[Pairing "x"]\n1. 26-22 *\n', "pdn.tag", 2),
        ('[Event "e"]\n1. 26-22 {oops\n', "pdn.syntax", 2),
    ],
)
def test_unreadable_games_are_errors_with_their_line(text: str, code: str, line: int) -> None:
    (loaded,) = load(text)
    assert loaded.record is None and loaded.error is not None
    assert (loaded.error.code, loaded.line) == (code, line)


def test_a_bad_game_does_not_hide_the_next() -> None:
    games = load('[GameType "20"]\n1. 32-28 *\n\n[Event "ok"]\n1. 26-22 *\n')
    assert [g.error is None for g in games] == [False, True]


def test_fen_becomes_the_start_in_canonical_form() -> None:
    (loaded,) = load('[FEN "w:b22:w10"]\n1... 10-14 *\n')
    assert loaded.record is not None
    assert loaded.record.start == "W:W10:B22"
    assert [turn.seat for turn in loaded.record.turns] == [1]


def test_text_that_is_not_utf_8_is_an_encoding_error_of_its_game_only() -> None:
    """Not silently replaced (issue 16): a Latin-1 name is reported where it stands."""
    text = '[White "Jos\xe9"]\n1. 26-22 *\n\n[White "Ann"]\n1. 26-22 *\n'
    bad, good = load(text.encode("latin-1"))
    assert bad.record is None and bad.error is not None and bad.error.code == "encoding"
    assert bad.line == 1 and bad.error.message.startswith("line 1, column 12: byte 0xe9 ")
    assert good.record is not None and good.record.players[1].name == "Ann"


def test_the_reason_of_a_pdn_result_is_inferred_from_the_board() -> None:
    played_out = '[FEN "B:W22:B26"]\n1. 26x17 2-0\n'
    resigned = "1. 26-22 7-11 0-2\n"
    agreed = "1. 26-22 7-11 1-1\n"
    results = [load(text)[0].record.result for text in (played_out, resigned, agreed)]  # type: ignore[union-attr]
    assert [r.reason for r in results] == [Reason.RULES, Reason.RESIGN, Reason.ADJUDICATED]  # type: ignore[union-attr]


# -- records to PDN and back ---------------------------------------------------------------------


def _record(seed: int, bots: tuple[str, str], event: EventInfo, comment: str | None) -> ThaiRecord:
    from referee.players.registry import make_bot

    players = [Player(name=f"{bot} {seed}", kind="bot", spec=bot) for bot in bots]
    record = play_game(
        GameSetup(GAME, RULESET, players, str(seed), event=event),
        [make_bot("thai", b) for b in bots],
    )
    assert isinstance(record, ThaiRecord)
    if comment is not None and record.turns:
        turns = list(record.turns)
        turns[0] = turns[0].model_copy(update={"comment": comment})
        record = record.model_copy(update={"turns": turns})
    return record


_texts = (
    st.text(
        st.characters(blacklist_characters='{}"\\', blacklist_categories=["Cs", "Cc"]),
        min_size=1,
        max_size=12,
    )
    .map(str.strip)
    .filter(lambda t: t not in ("", "?"))
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    bots=st.sampled_from([("random", "random"), ("random", "greedy"), ("greedy", "random")]),
    event=st.builds(
        EventInfo,
        event=st.none() | _texts,
        site=st.none() | _texts,
        round=st.none() | _texts,
        tournament=st.none() | _texts,
        pairing=st.none() | st.integers(0, 99),
        game_number=st.none() | st.integers(0, 9),
    ),
    comment=st.none() | _texts,
)
def test_pdn_export_then_import_gives_back_the_record(
    seed: int, bots: tuple[str, str], event: EventInfo, comment: str | None
) -> None:
    record = _record(seed, bots, event, comment)
    stream = io.StringIO()
    FORMAT.write([record], stream)
    (loaded,) = load(stream.getvalue())
    assert loaded.error is None
    assert loaded.record == record


def test_records_with_tags_and_a_start_round_trip() -> None:
    record = ThaiRecord(
        game="thai",
        ruleset="thai/standard@1",
        players=[Player(name="b"), Player(name="w")],
        start="W:W10:B22",
        turns=[Turn(seat=1, move="10-14", time_ms=1234, comment="first")],
        result=Result(winner=None, points=0, reason=Reason.ADJUDICATED, detail="turn cap 1"),
        tags={"Annotator": "me", "Comment": "before the moves"},
    )
    stream = io.StringIO()
    FORMAT.write([record], stream)
    assert "1... 10-14 {[%emt 1.234] first}" in stream.getvalue()
    (loaded,) = load(stream.getvalue())
    assert loaded.record == record


def test_export_writes_canonical_moves() -> None:
    record = ThaiRecord(
        game="thai",
        ruleset="thai/standard@1",
        players=[Player(name="b"), Player(name="w")],
        start="B:W22,14,27:B26,32",
        turns=[Turn(seat=0, move="26-17-10")],
    )
    assert [move.text for move in record_to_pdn(record).moves] == ["26x17x10"]


def test_export_refuses_what_pdn_cannot_hold() -> None:
    players = [Player(name="b"), Player(name="w")]
    bad_seats = ThaiRecord(
        game="thai", ruleset="thai/standard@1", players=players, turns=[Turn(seat=1, move="26-22")]
    )
    clash = ThaiRecord(game="thai", ruleset="thai/standard@1", players=players, tags={"Event": "x"})
    for record in (bad_seats, clash):
        with pytest.raises(ValueError):
            record_to_pdn(record)


# -- the format registry and the validator -------------------------------------------------------


def test_pdn_is_found_by_extension_and_by_its_tag_pairs() -> None:
    assert format_named("pdn") is not None
    assert isinstance(detect_format(Path("games.pdn"), b""), PdnFormat)
    assert isinstance(detect_format(None, b'[Event "x"]\n1. 26-22 *'), PdnFormat)
    assert not isinstance(detect_format(None, b'[{"format": "referee"}]'), PdnFormat)


def test_validator_names_the_line_the_move_and_why(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(
        '[Event "good"]\n[Result "*"]\n\n1. 26-22 7-11 *\n\n'
        '[Event "bad"]\n[Result "*"]\n\n1. 26-22 7-11 2. 22-18 11-15\n3. 31-26 *\n',
        encoding="utf-8",
    )
    good, bad = validate_file(path)
    assert good.valid
    assert not bad.valid
    (diagnostic,) = bad.diagnostics
    assert diagnostic.code == "thai.capture-compulsory"
    assert (diagnostic.line, diagnostic.column) == (10, 4)
    assert diagnostic.turn == 5 and diagnostic.move == "31-26"
    assert "compulsory" in diagnostic.message and "18x11" in diagnostic.message
    assert "10:4" in diagnostic.one_line() and "turn 5" in diagnostic.one_line()


_PDN_ALPHABET = st.sampled_from(list('[]{}()"\\;%$.!?*xX-: \n\t0123456789BWKEventResult2-0'))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_PDN_ALPHABET, max_size=300) | st.binary(max_size=300))
def test_reading_any_input_never_raises(data: str | bytes) -> None:
    """Each game read is a record or an error, never an exception."""
    for loaded in load(data):
        assert (loaded.record is None) != (loaded.error is None)
        if loaded.record is not None:
            assert len(loaded.turn_places) == len(loaded.record.turns)


def test_captures_written_with_dashes_validate(tmp_path: Path) -> None:
    """GameType 31 writes captures with '-', also the abbreviated form from start to end."""
    path = tmp_path / "dashes.pdn"
    path.write_text(
        '[GameType "31"]\n[FEN "B:W22,14,27,1:B26,32"]\n[Result "*"]\n\n1. 26-10 1-5 2. 32-23 *\n'
        '\n[FEN "B:W22,14,27,1:B26,32"]\n1. 26-17-10 1-6 *\n',
        encoding="utf-8",
    )
    reports = list(validate_file(path))
    assert [report.valid for report in reports] == [True, True]


def test_both_movetext_forms_are_read() -> None:
    """The writer leaves out `N...` after a comment; files that have it still read."""
    tags = '[White "W"]\n[Black "B"]\n[Result "*"]\n\n'
    with_numbers = load(tags + "1. 22-18 {[%emt 1.5]} 1... 11-15 {x} 2. 18x11 *\n")
    without = load(tags + "1. 22-18 {[%emt 1.5]} 11-15 {x} 2. 18x11 *\n")
    for loaded in (with_numbers, without):
        (one,) = loaded
        assert one.record is not None
        assert [turn.move for turn in one.record.turns] == ["22-18", "11-15", "18x11"]
        assert one.record.turns[0].time_ms == 1500
    assert with_numbers[0].record == without[0].record


def test_pydraughts_reads_every_game_referee_writes() -> None:
    """Acceptance (issue 19): another program's PDN reader (pydraughts) reads every game of a
    file referee wrote, times in comments included, with the same moves. (It took none of
    them while a comment brought back White's move number: it then mistook `1.` inside `11.`
    for a repeated number.)"""
    draughts_pdn = pytest.importorskip("draughts.PDN", reason="pydraughts is not installed")
    records = [
        _record(seed, bots, EventInfo(event="t", pairing=seed), "note" if seed % 2 else None)
        for seed, bots in enumerate([("random", "greedy"), ("greedy", "random")] * 6)
    ]
    stream = io.StringIO()
    FORMAT.write(records, stream)
    text = stream.getvalue()
    assert "[%emt" in text
    games = draughts_pdn.PDNReader(pdn_text=text).games
    assert len(games) == len(records)
    for game, record in zip(games, records, strict=True):
        assert game.moves == [turn.move for turn in record.turns]
        assert game.tags["Black"] == record.players[0].name
        assert game.variant == "thai"
