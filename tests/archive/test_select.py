"""`referee select`: no filter keeps every game, each filter keeps what a plain predicate over
the records keeps, duplicates go, split files add up, positions find their games."""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.archive.select import reservoir
from referee.games import get_game
from referee.games.trax.rules import ORIGIN, ROW_ORIGIN, TraxState, coords, key_of
from referee.records.convert import canonical
from referee.records.model import Player, Record
from referee.records.replay import replay, start_state
from referee.validator.check import validate_record
from tests.archive.helpers import (
    NAMES,
    archives,
    pool,
    read_jsonl,
    select,
)
from tests.records.helpers import write_jsonl

SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="referee-select-test-"))


@SETTINGS
@given(archives())
def test_no_filter_copies_a_jsonl_archive_byte_for_byte(games: list[Record]) -> None:
    folder = _folder()
    lines = write_jsonl(folder / "in.jsonl", games)
    result = select(str(folder / "in.jsonl"), "-o", str(folder / "out.jsonl"))
    assert result.exit_code == 0, result.output
    assert (folder / "out.jsonl").read_bytes() == b"".join(lines)
    assert f"read {len(games)} games, kept {len(games)}, dropped 0" in result.output


def _moves(record: Record) -> list[str]:
    return [turn.move for turn in canonical(record).turns]


@settings(SETTINGS, max_examples=5)
@given(archives(min_size=1, max_size=5))
def test_no_filter_round_trips_through_every_format_that_holds_the_game(
    games: list[Record],
) -> None:
    folder = _folder()
    write_jsonl(folder / "in.jsonl", games)
    whole = folder / "all.json"
    assert select(str(folder / "in.jsonl"), "-o", str(whole)).exit_code == 0
    assert select(str(whole), "-o", str(folder / "back.jsonl")).exit_code == 0
    assert read_jsonl(folder / "back.jsonl") == games
    for extension, game in ((".pdn", "thai"), (".trx", "trax"), (".mat", "takhteh")):
        ours = [record for record in games if record.game == game]
        # A .mat file holds one match or money session: these independent games make one each.
        first = ["--first", "1"] if extension == ".mat" else []
        ours = ours[:1] if first else ours
        target = folder / f"out{extension}"
        result = select(str(folder / "in.jsonl"), "--game", game, *first, "-o", str(target))
        assert result.exit_code == 0, result.output
        back = folder / f"back-{game}.jsonl"
        if not ours:
            continue
        assert select(str(target), "-o", str(back)).exit_code == 0
        again = read_jsonl(back)
        assert [_moves(record) for record in again] == [_moves(record) for record in ours]
        if game != "takhteh":  # a .mat match names its players once, for every game
            assert [[p.name for p in r.players] for r in again] == [
                [p.name for p in r.players] for r in ours
            ]


def _winner_name(record: Record) -> str | None:
    if record.result is None or record.result.winner is None:
        return None
    return record.players[record.result.winner].name


# Each filter's options and the plain predicate it must agree with, written from the record.
FILTERS: dict[str, Callable[[object], tuple[list[str], Callable[[Record], bool]]]] = {
    "game": lambda v: (["--game", v], lambda r: r.game == v),
    "variant": lambda v: (["--variant", "8x8"], lambda r: "/8x8@" in r.ruleset),
    "player": lambda v: (["--player", v], lambda r: v in (r.players[0].name, r.players[1].name)),
    "seat0": lambda v: (["--seat0", v], lambda r: r.players[0].name == v),
    "seat1": lambda v: (["--seat1", v], lambda r: r.players[1].name == v),
    "winner": lambda v: (["--winner", v], lambda r: _winner_name(r) == v),
    "draw": lambda v: (
        ["--winner", "draw"],
        lambda r: r.result is not None and r.result.winner is None,
    ),
    "seat1wins": lambda v: (
        ["--winner", "seat1"],
        lambda r: r.result is not None and r.result.winner == 1,
    ),
    "reason": lambda v: (
        ["--reason", "resign", "--reason", "time"],
        lambda r: r.result is not None and r.result.reason.value in ("resign", "time"),
    ),
    "detail": lambda v: (
        ["--detail", "LINE"],
        lambda r: r.result is not None and "line" in (r.result.detail or "").lower(),
    ),
    "turns": lambda v: (["--turns", "20..60"], lambda r: 20 <= len(r.turns) <= 60),
    "short": lambda v: (["--turns", "..30"], lambda r: len(r.turns) <= 30),
    "event": lambda v: (
        ["--event", "CLUB"],
        lambda r: r.event.event is not None and "club" in r.event.event.lower(),
    ),
    "tag": lambda v: (["--tag", "Opening=x"], lambda r: r.tags.get("Opening") == "x"),
    "valid": lambda v: (["--valid"], lambda r: validate_record(r, "", 1).valid),
    "invalid": lambda v: (["--invalid"], lambda r: not validate_record(r, "", 1).valid),
}
VALUES = st.sampled_from([*NAMES, "thax", "takhteh", "trax", "thai"])
SAME_OPTION = {"draw": "winner", "seat1wins": "winner", "short": "turns", "invalid": "valid"}
"""Filters given by one option: given twice, the last would win, so they are drawn once."""


@SETTINGS
@given(
    archives(),
    st.lists(
        st.tuples(st.sampled_from(sorted(FILTERS)), VALUES),
        min_size=1,
        max_size=3,
        unique_by=lambda chosen: SAME_OPTION.get(chosen[0], chosen[0]),
    ),
    st.booleans(),
)
def test_each_filter_keeps_what_a_plain_predicate_keeps(
    games: list[Record], chosen: list[tuple[str, str]], any_of: bool
) -> None:
    folder = _folder()
    lines = write_jsonl(folder / "in.jsonl", games)
    options: list[str] = ["--any"] if any_of else []
    tests = []
    for name, value in chosen:
        more, test = FILTERS[name](value)
        options += more
        tests.append(test)
    combine = any if any_of else all
    wanted = [line for line, r in zip(lines, games, strict=True) if combine(t(r) for t in tests)]
    result = select(str(folder / "in.jsonl"), *options, "-o", str(folder / "out.jsonl"))
    assert result.exit_code == 0, result.output
    assert (folder / "out.jsonl").read_bytes() == b"".join(wanted)


@settings(SETTINGS, max_examples=6)
@given(archives(), st.integers(1, 5))
def test_first_and_sample(games: list[Record], size: int) -> None:
    folder = _folder()
    lines = write_jsonl(folder / "in.jsonl", games)
    result = select(str(folder / "in.jsonl"), "--first", str(size), "-o", str(folder / "a.jsonl"))
    assert result.exit_code == 0
    assert (folder / "a.jsonl").read_bytes() == b"".join(lines[:size])
    for seed in ("1", "2"):
        out = folder / f"s{seed}.jsonl"
        args = ["--sample", str(size), "--seed", seed, "-o", str(out)]
        assert select(str(folder / "in.jsonl"), *args).exit_code == 0
        drawn = out.read_bytes().splitlines(keepends=True)
        assert len(drawn) == min(size, len(lines))
        # A sample keeps the archive's order, and only its games.
        positions = iter(range(len(lines)))
        assert all(any(lines[i] == line for i in positions) for line in drawn)


def test_sample_draws_each_game_about_equally_often() -> None:
    hits: Counter[int] = Counter()
    for seed in range(2000):
        hits.update(reservoir(range(10), 3, random.Random(seed)))
    # Each of 10 items is drawn with chance 3/10: 600 of 2000 times, a standard deviation of 20.
    assert set(hits) == set(range(10))
    assert all(520 <= count <= 680 for count in hits.values()), hits


@SETTINGS
@given(archives())
def test_dedupe_of_an_archive_twice_gives_the_archive(games: list[Record]) -> None:
    folder = _folder()
    unique = list({tuple(_key(r)): r for r in games}.values())
    lines = write_jsonl(folder / "in.jsonl", unique)
    (folder / "twice.jsonl").write_bytes(b"".join(lines) * 2)
    result = select(str(folder / "twice.jsonl"), "--dedupe", "-o", str(folder / "out.jsonl"))
    assert result.exit_code == 0
    assert (folder / "out.jsonl").read_bytes() == b"".join(lines)
    assert f"{len(unique)} duplicates" in result.output


def _key(record: Record) -> list[object]:
    turns = [(t.seat, t.roll, t.move) for t in record.turns]
    return [
        record.game,
        record.ruleset,
        record.start,
        str(getattr(record, "opening_rolls", [])),
        str(turns),
    ]


@SETTINGS
@given(archives(), st.sampled_from(["game", "variant", "event", "player", "pairing"]))
def test_split_then_concatenate_gives_the_same_games(games: list[Record], by: str) -> None:
    folder = _folder()
    lines = write_jsonl(folder / "in.jsonl", games)
    result = select(str(folder / "in.jsonl"), "--split-by", by, "-o", str(folder / "split"))
    assert result.exit_code == 0, result.output
    files = sorted((folder / "split").glob("*.jsonl")) if games else []
    written = Counter(line for f in files for line in f.read_bytes().splitlines(keepends=True))
    copies = [len({p.name for p in r.players}) if by == "player" else 1 for r in games]
    assert written == Counter({line: 0 for line in lines}) + Counter(
        line for line, n in zip(lines, copies, strict=True) for _ in range(n)
    )
    # Each file holds one value.
    for file in files:
        values = {_value(r, by) for r in read_jsonl(file)}
        assert len(values) == 1 or by == "player"


def _value(record: Record, by: str) -> str:
    names = sorted(p.name for p in record.players)
    return {
        "game": record.game,
        "variant": record.ruleset,
        "event": record.event.event or "",
        "player": "",
        "pairing": " ".join(names),
    }[by]


def _positions(record: Record) -> list:
    game = get_game(record.game)
    return [start_state(record, game)] + [step.after for step in replay(record, game)]


@pytest.mark.parametrize("game", ["thax", "takhteh", "trax", "thai"])
def test_a_position_from_the_middle_of_a_game_selects_that_game(tmp_path: Path, game) -> None:
    games = [record for record in pool()]
    lines = write_jsonl(tmp_path / "in.jsonl", games)
    engine = get_game(game)
    for index, record in enumerate(games):
        if record.game != game:
            continue
        states = _positions(record)
        middle = states[len(states) // 2]
        text = engine.format_position(middle)
        out = tmp_path / "out.jsonl"
        result = select(str(tmp_path / "in.jsonl"), "--position", text, "-o", str(out))
        assert result.exit_code == 0, result.output
        kept = out.read_bytes().splitlines(keepends=True)
        assert lines[index] in kept
        assert all(read.game == game for read in read_jsonl(out))


FIRST = (ORIGIN, ROW_ORIGIN)
"""Where the engine places the first tile, by column and row."""


def _transform(x: int, y: int, tile: int, transpose: bool) -> tuple[int, int, int]:
    """Half a turn, or a reflection in the diagonal through the first tile (written here
    from the tile's edges N=1, E=2, S=4, W=8, not from the engine's symmetry module)."""
    # The first tile's column and row: the centre of both.
    x0, y0 = FIRST
    if transpose:  # N <-> W, E <-> S
        edges = {1: 8, 8: 1, 2: 4, 4: 2}
        return (
            x0 + (y - y0),
            y0 + (x - x0),
            sum(edges[b] for b in edges if tile & b),
        )
    edges = {1: 4, 4: 1, 2: 8, 8: 2}
    return 2 * x0 - x, 2 * y0 - y, sum(edges[b] for b in edges if tile & b)


def _symmetric_copy(record: Record, turns: int) -> str:
    """The moves of a game's first turns, each tile moved to its mirror place: a move list
    of the same position turned over (legal, since the rules do not see the orientation)."""
    game = get_game("trax")
    ruleset = game.parse_ruleset(record.ruleset)
    original, copy = TraxState(ruleset), TraxState(ruleset)
    first = game.parse_move(original, record.turns[0].move)
    transpose = first.tile != 0b0101  # @0/ is kept by the diagonal, @0+ by half a turn
    for turn in record.turns[:turns]:
        move = game.parse_move(original, turn.move)
        key = original.space_of(move.col, move.row) if original.box else key_of(*FIRST)
        x, y = coords(key)
        tx, ty, tile = _transform(x, y, move.tile, transpose)
        copy = copy.play(copy.move_at(key_of(tx, ty), tile))
        original = original.play(move)
    return game.format_position(copy)


def test_a_turned_over_trax_position_selects_its_game_with_symmetric(tmp_path: Path) -> None:
    games = [record for record in pool() if record.game == "trax"]
    lines = write_jsonl(tmp_path / "in.jsonl", games)
    out = tmp_path / "out.jsonl"
    for index, record in enumerate(games):
        turns = len(record.turns) // 2
        text = _symmetric_copy(record, turns)
        assert (
            select(
                str(tmp_path / "in.jsonl"), "--position", text, "--symmetric", "-o", str(out)
            ).exit_code
            == 0
        )
        assert lines[index] in out.read_bytes().splitlines(keepends=True)
        game = get_game("trax")
        plain = game.parse_position(game.parse_ruleset(record.ruleset), text)
        if plain != _positions(record)[turns]:
            assert (
                select(str(tmp_path / "in.jsonl"), "--position", text, "-o", str(out)).exit_code
                == 0
            )
            assert lines[index] not in out.read_bytes().splitlines(keepends=True)


def test_moves_prefix_keeps_games_that_open_with_those_moves(tmp_path: Path) -> None:
    games = list(pool())
    lines = write_jsonl(tmp_path / "in.jsonl", games)
    for index, record in enumerate(games):
        plies = [turn.move for turn in record.turns[:3]]
        # Plies of a game without dice may be given one per word, with move numbers.
        dice = record.game in ("thax", "takhteh")
        text = "; ".join(plies) if dice else "1. " + " ".join(plies)
        out = tmp_path / "out.jsonl"
        result = select(str(tmp_path / "in.jsonl"), "--moves", text, "-o", str(out))
        assert result.exit_code == 0, result.output
        kept = out.read_bytes().splitlines(keepends=True)
        assert lines[index] in kept
        for other, line in zip(games, lines, strict=True):
            # The same texts are the same opening (the converse needs the same notation).
            if other.game == record.game and [t.move for t in other.turns[:3]] == plies:
                assert line in kept


def test_bad_input_is_one_line_and_a_nonzero_exit(tmp_path: Path) -> None:
    games = list(pool())[:3]
    lines = write_jsonl(tmp_path / "in.jsonl", games)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(
        lines[0] + b'{"format": "referee", "version": 1, "game": "chess"}\n' + b"{nope\n"
    )
    result = select(str(broken), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"{broken}:2: game 2: [game]" in result.output
    assert f"{broken}:3: game 3: [json]" in result.output
    assert (tmp_path / "out.jsonl").read_bytes() == lines[0]
    for args in (
        [str(tmp_path / "missing.jsonl")],
        [str(broken), "--turns", "9..3"],
        [str(broken), "--tag", "novalue"],
        [str(broken), "--position", "not a position"],
        [str(broken), "--first", "2", "--sample", "2"],
        [str(broken), "-o", str(tmp_path / "x.unknown")],
    ):
        result = select(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_standard_input_and_output(tmp_path: Path) -> None:
    games = list(pool())[:4]
    lines = write_jsonl(tmp_path / "in.jsonl", games)
    result = select("-", "--game", games[0].game, "--format", "jsonl", input=b"".join(lines))
    assert result.exit_code == 0
    assert result.stdout.encode() == b"".join(
        line for line, r in zip(lines, games, strict=True) if r.game == games[0].game
    )


ODD_NAMES = ("p" * 256, "б" * 200, "ботик", "бот", "bot/../x", "a b", "a_b", "ann")


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(pool()), st.permutations(ODD_NAMES)), max_size=6))
def test_split_by_player_gives_each_name_a_file_of_its_own(
    drawn: list[tuple[Record, list[str]]],
) -> None:
    # Names over 250 bytes, of no ASCII letter, or that clash once their odd characters go.
    games = [
        base.model_copy(update={"players": [Player(name=n, kind="bot") for n in names[:2]]})
        for base, names in drawn
    ]
    folder = _folder()
    lines = write_jsonl(folder / "in.jsonl", games)
    result = select(str(folder / "in.jsonl"), "--split-by", "player", "-o", str(folder / "split"))
    assert result.exit_code == 0, result.output
    files = list((folder / "split").iterdir()) if games else []
    assert all(f.name.isascii() and len(f.name) < 255 for f in files)
    written = sorted(sorted(file.read_bytes().splitlines(keepends=True)) for file in files)
    names = {player.name for record in games for player in record.players}
    expected = [
        sorted(line for line, r in zip(lines, games, strict=True) if name in _names(r))
        for name in names
    ]
    assert written == sorted(expected)


def _names(record: Record) -> set[str]:
    return {player.name for player in record.players}
