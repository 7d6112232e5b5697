"""Opening suites: reading and checking suite files, the order of play, listing openings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games import get_game
from referee.games.trax.symmetry import shape, transforms
from referee.tournament.openings import (
    Opening,
    OpeningError,
    all_openings,
    find_suite,
    opening_order,
    read_openings,
)

TRAX, THAI, TAKHTEH = get_game("trax"), get_game("thai"), get_game("takhteh")


def suite(tmp_path: Path, text: str, name: str = "suite.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_suite_file_is_read_in_canonical_notation(tmp_path: Path) -> None:
    path = suite(
        tmp_path,
        "# Trax openings\n\n@0+ B1/ A2\\\n  @0/   # a comment after the moves\n",
    )
    openings = read_openings(path, TRAX, TRAX.ruleset())
    assert openings == [Opening(None, ("@0+", "B1/", "A2\\")), Opening(None, ("@0/",))]


def test_thai_lines_take_a_fen_and_pdn_move_numbers(tmp_path: Path) -> None:
    fen = "W:W9,10:B23,24"
    path = suite(tmp_path, f"1. 25-21 5-9 2. 21-17\n{fen} | 9-13\n{fen} |\n")
    openings = read_openings(path, THAI, THAI.ruleset())
    assert openings[0] == Opening(None, ("25-21", "5-9", "21-17"))
    assert openings[1].moves == ("9-13",) and openings[2].moves == ()
    assert openings[1].start is not None and openings[1].start.startswith("W:")
    again = suite(tmp_path, "\n".join(opening.text() for opening in openings), "again.txt")
    assert read_openings(again, THAI, THAI.ruleset()) == openings


def test_takhteh_lines_are_start_positions(tmp_path: Path) -> None:
    path = suite(tmp_path, "4HPwATDgc/ABMA\n")
    assert read_openings(path, TAKHTEH, TAKHTEH.ruleset()) == [Opening("4HPwATDgc/ABMA", ())]


@pytest.mark.parametrize(
    ("game", "text", "line", "rule"),
    [
        (TRAX, "@0+\n@0+ Z9/\n", 2, "trax.not-adjacent"),
        (TRAX, "@0+ hello\n", 1, "notation"),
        (TRAX, "@0+ B1/\n\n@0+ @0+\n", 3, ""),
        (THAI, "25-21\n25-20\n", 2, ""),
        (THAI, "X:W1:B2 | 25-21\n", 1, "start"),
        (TAKHTEH, "4HPwATDgc/ABMA | 31: 8/5 6/5\n", 1, "book-dice"),
        (TAKHTEH, "not-a-position\n", 1, "start"),
        (TRAX, "|\n", 1, "empty"),
    ],
)
def test_a_bad_line_names_file_line_and_rule(
    tmp_path: Path, game, text: str, line: int, rule: str
) -> None:
    path = suite(tmp_path, text)
    with pytest.raises(OpeningError) as caught:
        read_openings(path, game, game.ruleset())
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: ")
    assert "\n" not in message
    if rule:
        assert caught.value.rule == rule


def test_an_empty_or_undecodable_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OpeningError, match="no opening"):
        read_openings(suite(tmp_path, "# nothing\n"), TRAX, TRAX.ruleset())
    path = tmp_path / "bad.txt"
    path.write_bytes(b"@0+ \xff\n")
    with pytest.raises(OpeningError, match="UTF-8"):
        read_openings(path, TRAX, TRAX.ruleset())


@given(st.integers(1, 30), st.sampled_from(["sequential", "random"]), st.integers(1, 30))
@settings(max_examples=60)
def test_every_opening_is_played_once_per_cycle(size: int, order: str, start: int) -> None:
    openings = [Opening(None, (f"m{i}",)) for i in range(size)]
    start = (start - 1) % size + 1
    pick = opening_order(openings, order, "seed", start)
    first_cycle = [pick(pair) for pair in range(size)]
    assert sorted(first_cycle, key=lambda o: o.moves) == sorted(openings, key=lambda o: o.moves)
    assert [pick(pair + size) for pair in range(size)] == first_cycle
    if order == "sequential":
        assert first_cycle[0] == openings[start - 1]
    assert opening_order(openings, order, "seed", start)(0) == first_cycle[0]


def reachable(game, plies: int) -> list:
    """Every position after `plies` moves, by walking all move sequences, that is no finished
    game and where the side to move cannot win at once."""
    states = [game.initial_state(game.ruleset())]
    for _ in range(plies):
        states = [s.play(m) for s in states for m in s.legal_moves()]

    def open_game(state) -> bool:
        if state.outcome() is not None:
            return False
        for move in state.legal_moves():
            after = state.play(move).outcome()
            if after is not None and after.winner == state.to_move:
                return False
        return True

    return [s for s in states if open_game(s)]


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_thai_openings_are_the_distinct_positions(plies: int) -> None:
    fens = {THAI.format_position(s) for s in reachable(THAI, plies)}
    openings = all_openings(THAI, THAI.ruleset(), plies)
    assert len(openings) == len(fens)
    reached = set()
    for opening in openings:
        state = THAI.initial_state(THAI.ruleset())
        for move in opening.moves:
            state = state.play(THAI.parse_move(state, move))
        reached.add(THAI.format_position(state))
    assert reached == fens


@pytest.mark.parametrize("plies", [2, 3])
def test_trax_openings_cover_every_position_up_to_symmetry(plies: int) -> None:
    openings = all_openings(TRAX, TRAX.ruleset(), plies, symmetric=True)
    shapes = []
    for opening in openings:
        state = TRAX.initial_state(TRAX.ruleset())
        for move in opening.moves:
            state = state.play(TRAX.parse_move(state, move))
        shapes.append(shape(state))
    # No opening is a rotation or reflection of another ...
    for index, one in enumerate(shapes):
        assert not any(other in transforms(one) for other in shapes[index + 1 :])
    # ... and every reachable position is one of them, turned or mirrored.
    covered = {variant for one in shapes for variant in transforms(one)}
    assert all(shape(state) in covered for state in reachable(TRAX, plies))


def test_the_openings_command_writes_a_suite_that_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "trax.txt"
    result = CliRunner().invoke(app, ["openings", "--game", "trax", "--plies", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    openings = read_openings(out, TRAX, TRAX.ruleset())
    assert len(openings) == len(all_openings(TRAX, TRAX.ruleset(), 2, symmetric=True))
    refused = CliRunner().invoke(app, ["openings", "--game", "takhteh"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output


SHIPPED = Path(__file__).resolve().parents[2] / "referee" / "data" / "openings"


@pytest.mark.parametrize("name", ["trax-3ply", "thai-3ply"])
def test_the_shipped_suites_are_named_from_any_folder(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shipped suite is package data, found by its name wherever referee runs (not by a
    path into the repository, which a non-editable install does not have)."""
    monkeypatch.chdir(tmp_path)
    game = TRAX if name.startswith("trax") else THAI
    found = find_suite(name, tmp_path)
    assert found.read_text("utf-8") == (SHIPPED / f"{name}.txt").read_text("utf-8")
    openings = read_openings(found, game, game.ruleset())
    assert openings == read_openings(SHIPPED / f"{name}.txt", game, game.ruleset())
    assert len(openings) >= 30
    # A file of that name in the folder is the user's own suite, and wins.
    own = suite(tmp_path, "@0+ B1/\n", name=name)
    assert (
        read_openings(find_suite(name, tmp_path), TRAX, TRAX.ruleset())
        == [Opening(None, ("@0+", "B1/"))]
        and find_suite(name, tmp_path) == own
    )


def test_a_suite_that_is_neither_file_nor_shipped_is_named_in_the_error(tmp_path: Path) -> None:
    with pytest.raises(OpeningError, match="trax-3ply") as error:
        find_suite("trax-9ply", tmp_path)
    assert error.value.path == "trax-9ply"


def test_openings_list_names_the_shipped_suites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["openings", "--list"])
    assert result.exit_code == 0, result.output
    expected = []
    for path in sorted(SHIPPED.glob("*.txt")):
        lines = path.read_text("utf-8").splitlines()
        count = sum(1 for line in lines if line.strip() and not line.startswith("#"))
        expected.append(f"{path.stem}\t{count} openings")
    assert result.output.splitlines() == expected
    assert {"trax-3ply\t32 openings", "thai-3ply\t245 openings"} <= set(expected)
    missing = CliRunner().invoke(app, ["openings"])
    assert missing.exit_code == 2 and "--list" in missing.output


def test_a_tournament_names_a_shipped_suite_as_its_path_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--openings trax-3ply` from any folder is the tournament that the suite's path into the
    repository made: the same lines in tournament.json, so the same digest and games, and a
    folder made with the path resumes as before."""
    monkeypatch.chdir(tmp_path)
    common = ["tournament", "run", "--game", "trax", "--bots", "random,greedy", "-q"]
    common += ["--games-per-pair", "4", "--seed", "3"]
    by_name = CliRunner().invoke(app, [*common, "--openings", "trax-3ply", "--out", "a"])
    assert by_name.exit_code == 0, by_name.output
    by_path = CliRunner().invoke(
        app, [*common, "--openings", str(SHIPPED / "trax-3ply.txt"), "--out", "b"]
    )
    assert by_path.exit_code == 0, by_path.output
    first, second = (json.loads(Path(out, "tournament.json").read_text()) for out in "ab")
    assert first["config"] == second["config"] and first["id"] == second["id"]
    assert first["config"]["openings"][:2] == ["@0+ A0+ A0+", "@0+ A0+ A0/"]
    assert Path("a/games.jsonl").read_bytes().count(b"\n") == 4
    resumed = CliRunner().invoke(app, ["tournament", "resume", "b", "-q"])
    assert resumed.exit_code == 0, resumed.output


def test_a_toml_file_names_a_shipped_suite_or_a_file_beside_it(tmp_path: Path) -> None:
    from referee.tournament.config import load_config_file

    toml = tmp_path / "t.toml"
    bots = '[[bots]]\nname = "a"\nspec = "random"\n[[bots]]\nname = "b"\nspec = "greedy"\n'
    toml.write_text(f'game = "thai"\nopenings = "thai-3ply"\n{bots}')
    lines = (SHIPPED / "thai-3ply.txt").read_text("utf-8").splitlines()
    expected = [line for line in lines if line and not line.startswith("#")]
    config = load_config_file(toml, {})
    assert config.openings is not None and len(config.openings) == len(expected) == 245
    # Canonical PDN as the engine writes it: the shipped lines are written so already.
    assert config.openings == expected
    suite(tmp_path, expected[7] + "\n", name="thai-3ply")  # a file beside the TOML file wins
    assert load_config_file(toml, {}).openings == [expected[7]]
