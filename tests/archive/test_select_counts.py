"""`referee select`'s counts and notes: every game read is kept or dropped once, a format of
one game takes only that game's games (no empty file, no line per other game), `--moves` is
checked against the rules, and a name no game has is noted."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import get_game
from referee.records.formats import format_named
from referee.records.model import Player, Record
from tests.archive.helpers import archives, pool, select
from tests.archive.test_select import FILTERS, SAME_OPTION, SETTINGS, VALUES, _key
from tests.records.helpers import write_jsonl

BROKEN = b"{nope\n"
FORMAT_GAMES = {"jsonl": None, "pdn": "thai", "trax": "trax"}
SUMMARY = re.compile(r"read (\d+) games, kept (\d+), dropped (\d+) \((.*)\)$", re.MULTILINE)


def _summary(output: str) -> tuple[int, int, int, list[int]]:
    """The three counts of the summary line and the numbers of its reasons."""
    match = SUMMARY.search(output)
    assert match is not None, output
    read, kept, dropped = (int(match.group(i)) for i in (1, 2, 3))
    # The reasons' counts: the number before each reason (a breakdown by game is inside
    # parentheses of its own and is not summed again).
    reasons = re.sub(r"\([^()]*\)", "", match.group(4))
    return read, kept, dropped, [int(n) for n in re.findall(r"(\d+) [a-z]", reasons)]


def _games_in(path: Path, format_name: str) -> int:
    with path.open("rb") as stream:
        return sum(1 for loaded in format_named(format_name).read(stream) if loaded.record)


def _named(record: Record, names: tuple[str, str]) -> Record:
    players = [Player(name=names[0], kind="bot"), Player(name=names[1], kind="bot")]
    return record.model_copy(update={"players": players})


def test_a_one_game_format_takes_that_game_alone_and_writes_no_empty_file(
    tmp_path: Path,
) -> None:
    # The Thai games are ann's and bob's, the others cy's and dee's: a split by player into
    # PDN has files for ann and bob only.
    games = [_named(r, ("ann", "bob") if r.game == "thai" else ("cy", "dee")) for r in pool()]
    thai = sum(1 for r in games if r.game == "thai")
    others = {name: sum(1 for r in games if r.game == name) for name in ("thax", "takhteh")}
    others["trax"] = sum(1 for r in games if r.game == "trax")
    write_jsonl(tmp_path / "in.jsonl", games)
    out = tmp_path / "split"
    result = select(
        str(tmp_path / "in.jsonl"), "--split-by", "player", "--format", "pdn", "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["ann.pdn", "bob.pdn"]
    assert _games_in(out / "ann.pdn", "pdn") == thai
    assert _games_in(out / "bob.pdn", "pdn") == thai
    assert "left out" not in result.output
    breakdown = ", ".join(f"{n} {game}" for game, n in sorted(others.items()))
    assert result.output.strip().splitlines() == [
        f"read {len(games)} games, kept {thai}, dropped {len(games) - thai} (0 by the filters, "
        f"0 duplicates, 0 unreadable, {len(games) - thai} of other games (pdn holds only thai: "
        f"{breakdown}))"
    ]


def test_first_counts_only_games_the_format_holds(tmp_path: Path) -> None:
    games = list(pool())
    write_jsonl(tmp_path / "in.jsonl", games)
    trax = [r for r in games if r.game == "trax"]
    out = tmp_path / "out.trx"
    result = select(str(tmp_path / "in.jsonl"), "--first", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert _games_in(out, "trax") == min(3, len(trax))


@settings(SETTINGS, max_examples=25)
@given(
    archives(max_size=10),
    st.integers(0, 2),
    st.lists(
        st.tuples(st.sampled_from(sorted(FILTERS)), VALUES),
        max_size=2,
        unique_by=lambda chosen: SAME_OPTION.get(chosen[0], chosen[0]),
    ),
    st.booleans(),
    st.sampled_from(sorted(FORMAT_GAMES)),
    st.sampled_from([None, "game", "player"]),
    st.sampled_from([None, "--first", "--sample"]),
    st.integers(1, 4),
    st.booleans(),
)
def test_read_is_kept_plus_dropped(
    games: list[Record],
    broken: int,
    chosen: list[tuple[str, str]],
    any_of: bool,
    format_name: str,
    split: str | None,
    limit: str | None,
    size: int,
    dedupe: bool,
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="referee-select-counts-"))
    lines = write_jsonl(folder / "in.jsonl", games)
    (folder / "in.jsonl").write_bytes(b"".join(lines) + BROKEN * broken)
    options = ["--format", format_name] + (["--any"] if any_of else [])
    tests = []
    for name, value in chosen:
        more, test = FILTERS[name](value)
        options += more
        tests.append(test)
    if dedupe:
        options.append("--dedupe")
    if limit is not None:
        options += [limit, str(size)]
    out = folder / "split" if split else folder / "out"
    if split:
        options += ["--split-by", split]
    result = select(str(folder / "in.jsonl"), *options, "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    read, kept, dropped, reasons = _summary(result.output)
    assert read == kept + dropped
    assert dropped == sum(reasons)

    # The games that pass, worked out from the records.
    only = FORMAT_GAMES[format_name]
    combine = any if any_of else all
    passing, seen, last = [], set(), -1
    for index, record in enumerate(games):
        if only is not None and record.game != only:
            continue
        if tests and not combine(test(record) for test in tests):
            continue
        if dedupe and tuple(_key(record)) in seen:
            continue
        seen.add(tuple(_key(record)))
        if limit == "--first" and len(passing) == size:
            break
        passing.append(record)
        last = index
    stopped = limit == "--first" and len(passing) == size
    assert read == (last + 1 if stopped else len(games) + broken)
    wanted = min(size, len(passing)) if limit else len(passing)
    unfit = int(m.group(1)) if (m := re.search(r"(\d+) the output format", result.output)) else 0
    assert kept + unfit == wanted
    assert unfit == 0 or format_name == "trax"

    files = sorted(out.iterdir()) if split else ([out] if out.exists() else [])
    written = [_games_in(file, format_name) for file in files]
    assert all(written) or not split, "no file of a split is empty"
    if split is None or split == "game":
        assert sum(written) == kept
    elif limit != "--sample" and not unfit:
        assert sum(written) == sum(len({p.name for p in r.players}) for r in passing)


@pytest.mark.parametrize(
    ("options", "ply"),
    [
        (["--game", "thai", "--moves", "1. 22-18 11-15"], "ply 1 '22-18'"),
        (["--moves", "1. 22-18 11-15"], "ply 1 '22-18'"),
        (["--game", "thai", "--moves", "1. 25-21 11-15"], "ply 2 '11-15'"),
        (["--game", "trax", "--moves", "@0+ A0\\ Z9+"], "ply 3 'Z9+'"),
        (["--game", "takhteh", "--moves", "31: 8/5 6/5; 64: 24/18 13/3"], "ply 2 '64: 24/18"),
        (["--game", "thax", "--moves", "P5 P5; P7"], "ply 2 'P7'"),
    ],
)
def test_moves_that_break_the_rules_are_refused_naming_the_ply(
    tmp_path: Path, options: list[str], ply: str
) -> None:
    write_jsonl(tmp_path / "in.jsonl", list(pool()))
    result = select(str(tmp_path / "in.jsonl"), *options, "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: --moves"), lines
    assert ply in lines[0]
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("game", ["thax", "takhteh", "trax", "thai"])
def test_the_opening_of_every_game_is_accepted(tmp_path: Path, game: str) -> None:
    """Every recorded opening passes the check (a real game's first plies are legal)."""
    games = [r for r in pool() if r.game == game]
    write_jsonl(tmp_path / "in.jsonl", games)
    for record in games:
        plies = [turn.move for turn in record.turns[:4]]
        text = "; ".join(plies) if get_game(game).has_dice else " ".join(plies)
        result = select(str(tmp_path / "in.jsonl"), "--moves", text, "-o", "-")
        assert result.exit_code == 0, (text, result.output)


def test_a_name_no_game_has_is_noted_with_the_nearest(tmp_path: Path) -> None:
    games = [_named(r, ("random", "greedy")) for r in list(pool())[:4]]
    write_jsonl(tmp_path / "in.jsonl", games)
    out = str(tmp_path / "out.jsonl")
    result = select(str(tmp_path / "in.jsonl"), "--player", "rndom", "-o", out)
    assert result.exit_code == 0
    assert "note: no game has a player named 'rndom'; nearest: random" in result.output
    result = select(str(tmp_path / "in.jsonl"), "--event", "no such cup", "-o", out)
    assert "note: no event or tournament id has 'no such cup'" in result.output
    # A known name is no note, even when the line test skipped the games that have it.
    result = select(str(tmp_path / "in.jsonl"), "--player", "random", "--game", "x", "-o", out)
    assert "note:" not in result.output
