"""A fifth game defined in this module alone: tic-tac-toe, registered here, goes through every
command (records, validation, a tournament, ratings, the report, the engine tools, the schema)
with no change anywhere else in referee."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import referee.games
from referee.cli.app import app
from referee.games import GAME_NAMES, register_game
from referee.games.base import (
    DemoSetup,
    Game,
    GameError,
    IllegalMove,
    NotationError,
    Outcome,
    Ruleset,
    State,
    perft,
)
from referee.records.io import iter_jsonl
from referee.validator.check import validate_loaded

FILES = "abc"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ".xo"


@dataclass(frozen=True, slots=True)
class TicTacToeState(State):
    ruleset: Ruleset
    board: tuple[int, ...] = (0,) * 9
    """0 empty, 1 seat 0's mark, 2 seat 1's."""
    seat: int = 0

    @property
    def to_move(self) -> int:
        return self.seat

    def legal_moves(self) -> list[int]:
        return [] if self.outcome() else [i for i, mark in enumerate(self.board) if not mark]

    def play(self, move: Any) -> TicTacToeState:
        if self.outcome() is not None:
            raise IllegalMove("the game is over", rule="tictactoe.game-over")
        if self.board[move]:
            raise IllegalMove(f"square {square(move)} is taken", rule="tictactoe.occupied")
        board = (*self.board[:move], self.seat + 1, *self.board[move + 1 :])
        return TicTacToeState(self.ruleset, board, 1 - self.seat)

    def outcome(self) -> Outcome | None:
        for a, b, c in LINES:
            if self.board[a] and self.board[a] == self.board[b] == self.board[c]:
                return Outcome(self.board[a] - 1)
        return Outcome(None, 0) if all(self.board) else None


def square(index: int) -> str:
    return f"{FILES[index % 3]}{index // 3 + 1}"


class TicTacToe(Game):
    name: ClassVar[str] = "tictactoe"
    title: ClassVar[str] = "Tic-tac-toe"
    turn_cap: ClassVar[int] = 9

    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> TicTacToeState:
        if start is not None:
            return self.parse_position(ruleset, start)
        return TicTacToeState(ruleset)

    def parse_position(self, ruleset: Ruleset, text: str) -> TicTacToeState:
        marks, _, seat = text.partition(" ")
        if len(marks) != 9 or set(marks) - set(MARKS) or seat not in ("0", "1"):
            raise NotationError(f"{text!r} is not nine of {MARKS!r}, a space and 0 or 1")
        return TicTacToeState(ruleset, tuple(MARKS.index(m) for m in marks), int(seat))

    def format_position(self, state: State) -> str:
        assert isinstance(state, TicTacToeState)
        return "".join(MARKS[mark] for mark in state.board) + f" {state.seat}"

    def parse_move(self, state: State, text: str) -> int:
        if len(text) != 2 or text[0] not in FILES or text[1] not in "123":
            raise NotationError(f"{text!r} is not a square a1..c3")
        return FILES.index(text[0]) + 3 * (int(text[1]) - 1)

    def format_move(self, state: State, move: Any) -> str:
        return square(move)

    def render_text(self, state: State) -> str:
        text = self.format_position(state)
        return "\n".join(text[row : row + 3] for row in (6, 3, 0))

    def render_svg(self, state: State, before: State | None = None) -> str:
        assert isinstance(state, TicTacToeState)
        cells = "".join(
            f'<text x="{10 + 20 * (i % 3)}" y="{50 - 20 * (i // 3)}">{MARKS[m]}</text>'
            for i, m in enumerate(state.board)
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 60">{cells}</svg>'


GAME = TicTacToe()


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The game is registered as a program would, and known only while a test of this module
    runs (on a copy of the registry); the process pool's workers are forked from this
    process, so they know it too."""
    monkeypatch.setattr(referee.games, "_plugins", dict(referee.games._plugins))
    register_game(GAME)
    yield


runner = CliRunner()


def cli(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    return result.exit_code, result.stdout, result.stderr


def record(moves: list[str], result: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "format": "referee",
        "version": 1,
        "game": "tictactoe",
        "ruleset": "tictactoe/standard@1",
        "players": [{"name": "ann"}, {"name": "bob"}],
        "turns": [{"seat": i % 2, "move": move} for i, move in enumerate(moves)],
        "result": result,
    }


def test_the_engine_counts_what_tic_tac_toe_is_known_to_have() -> None:
    # No game ends before its fifth move: every order of five distinct squares is a line.
    start = GAME.initial_state(GAME.ruleset())
    assert perft(start, 3) == 9 * 8 * 7
    assert perft(start, 5) == 9 * 8 * 7 * 6 * 5


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(9)), st.integers(min_value=0, max_value=9))
def test_a_game_read_back_from_a_record_validates(order: list[int], length: int) -> None:
    """Any prefix of a sequence of squares, cut where the game ends, is a valid record once
    its result is the one the position says (worked out here from the lines, not the engine)."""
    board, moves, winner = [0] * 9, [], None
    for index, cell in enumerate(order[:length]):
        board[cell] = index % 2 + 1
        moves.append(square(cell))
        won = [board[a] for a, b, c in LINES if board[a] and board[a] == board[b] == board[c]]
        if won:
            winner = won[0] - 1
            break
    over = winner is not None or len(moves) == 9
    result = None
    if over:
        result = {"winner": winner, "points": 0 if winner is None else 1, "reason": "rules"}
    (loaded,) = iter_jsonl([json.dumps(record(moves, result))])
    report = validate_loaded("game.jsonl", loaded)
    assert report.valid, report.diagnostics


def test_an_illegal_move_is_named_by_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record(["a1", "a1"], None)), encoding="utf-8")
    code, out, _ = cli("validate", "--json", path)
    assert code == 1
    (line,) = out.splitlines()
    assert json.loads(line)["diagnostics"][0]["code"] == "tictactoe.occupied"


def test_every_command_takes_the_fifth_game(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    code, _, err = cli(
        "tournament", "run", "--game", "tictactoe", "--bots", "random,random",
        "--games-per-pair", "20", "--seed", "3", "--concurrency", "2", "--quiet",
        "--out", folder,
    )  # fmt: skip
    assert code == 0, err
    lines = (folder / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    games = [json.loads(line) for line in lines]
    assert {game["game"] for game in games} == {"tictactoe"}
    assert all(5 <= len(game["turns"]) <= 9 for game in games)

    code, out, err = cli("validate", folder / "games.jsonl")
    assert code == 0, out + err

    code, out, err = cli("ratings", folder, "--format", "csv")
    assert code == 0, err
    rows = out.strip().splitlines()
    assert len(rows) == 3  # a header and the two bots
    assert sum(int(row.split(",")[rows[0].split(",").index("games")]) for row in rows[1:]) == 40

    code, out, err = cli("report", folder, "-o", tmp_path / "report.html")
    assert code == 0, err
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Tic-tac-toe" in page or "tictactoe" in page

    code, out, err = cli("select", folder, "--game", "tictactoe", "--winner", "draw")
    assert code == 0, err
    draws = sum(game["result"]["winner"] is None for game in games)
    assert len(out.splitlines()) == draws

    code, out, err = cli("show", folder / "games.jsonl", "--turn", "1")
    assert code == 0, err
    assert sum(row.count("x") for row in out.splitlines()[:3]) == 1

    code, out, err = cli("moves", "--game", "tictactoe", "--position", "xo.xo.... 0")
    assert code == 0, err
    assert sorted(out.split()) == ["a3", "b3", "c1", "c2", "c3"]

    code, out, err = cli("perft", "--game", "tictactoe", "--depth", "2")
    assert code == 0, err
    assert out.split()[:4] == ["1", "9", "2", "72"]

    code, out, err = cli("bots")
    assert code == 0, err
    assert out.splitlines()[-2] == "tictactoe:"
    assert out.splitlines()[-1].split()[0] == "random"

    code, out, err = cli("stats", folder, "--format", "csv")
    assert code == 0, err
    assert "tictactoe" in out

    code, out, err = cli("schema", "--out", tmp_path / "schemas")
    assert code == 0, err
    schema = json.loads((tmp_path / "schemas" / "record.schema.json").read_text())
    assert "tictactoe" in schema["discriminator"]["mapping"]


def test_an_unknown_game_still_names_the_games_known() -> None:
    code, _, err = cli("moves", "--game", "sudoku")
    assert code == 2
    assert err.strip() == (
        "referee: error: unknown game 'sudoku' (known: thax, takhteh, trax, thai, tictactoe)"
    )


def test_an_installed_package_adds_the_game_by_an_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package that names the game under the `referee.games` entry points (here a
    distribution's metadata written by hand) adds it without anyone calling register_game."""
    monkeypatch.delitem(referee.games._plugins, GAME.name)
    installed(tmp_path, monkeypatch, "tictactoe = tests.plugins.test_plugin_game:GAME")
    code, out, err = cli("moves", "--game", "tictactoe", "--position", "x........ 1")
    assert code == 0, err
    assert len(out.split()) == 8
    assert type(referee.games.get_game("tictactoe")).__name__ == "TicTacToe"


def installed(folder: Path, monkeypatch: pytest.MonkeyPatch, entry_point: str) -> None:
    """A distribution with one `referee.games` entry point, on the path from now on."""
    info = folder / "toy_games-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-games\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[referee.games]\n{entry_point}\n")
    monkeypatch.syspath_prepend(folder)
    monkeypatch.setattr(referee.games, "_entry_points_read", False)


def test_a_broken_plug_in_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(tmp_path, monkeypatch, "chess = no_such_module_here:GAME")
    code, _, err = cli("moves", "--game", "chess")
    assert code == 2
    assert err == (
        "referee: error: the game plug-in 'chess' (no_such_module_here:GAME) cannot be loaded: "
        "No module named 'no_such_module_here'\n"
    )


def test_a_plug_in_without_the_hooks_gets_the_defaults() -> None:
    """Its position text tells positions apart, no bot of it waits, it stays out of the demo."""
    from referee.archive.positions import position_query
    from referee.tournament.demo import demo_configs

    state = GAME.initial_state(GAME.ruleset()).play(4)
    assert GAME.position_key(state) == GAME.position_key(state, symmetric=True) == "....x.... 1"
    assert GAME.warm_up(["random"]) is None
    assert "tictactoe" not in demo_configs()
    with pytest.raises(GameError, match="--symmetric is for Trax positions"):
        position_query("....x.... 1", "tictactoe", symmetric=True)
    code, out, err = cli("openings", "--game", "tictactoe", "--plies", "1")
    assert code == 0, err
    assert len([line for line in out.splitlines() if not line.startswith("#")]) == 9


def _mirror(board: tuple[int, ...]) -> tuple[int, ...]:
    """The board with its a and c files swapped."""
    return tuple(board[row * 3 + 2 - column] for row in range(3) for column in range(3))


@pytest.fixture
def mirrored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tic-tac-toe whose positions are the same as their mirror images with `symmetric`."""

    def position_key(self: TicTacToe, state: TicTacToeState, symmetric: bool = False) -> Any:
        return state.seat, min(state.board, _mirror(state.board)) if symmetric else state.board

    monkeypatch.setattr(TicTacToe, "position_key", position_key)
    monkeypatch.setattr(TicTacToe, "symmetric_positions", True)


@pytest.mark.usefixtures("mirrored")
def test_a_plug_in_says_which_openings_are_the_same() -> None:
    code, out, err = cli("openings", "--game", "tictactoe", "--plies", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith("cannot win at once, up to rotation and reflection; 6 openings")
    # a1 and c1, a2 and c2, a3 and c3 are mirror images; the b file is its own.
    assert sorted(lines[2:]) == ["a1", "a2", "a3", "b1", "b2", "b3"]
    code, out, err = cli("openings", "--game", "tictactoe", "--plies", "1", "--no-symmetric")
    assert code == 0, err
    assert len(out.splitlines()[2:]) == 9


@pytest.mark.usefixtures("mirrored")
def test_a_plug_in_finds_a_mirror_image_of_a_position() -> None:
    from referee.archive.positions import position_query

    query = position_query("x........ 1", "tictactoe", symmetric=True)
    start = GAME.initial_state(GAME.ruleset())
    assert query.key(start.play(2)) == query.target  # c1: a1 mirrored
    assert query.key(start.play(1)) != query.target
    plain = position_query("x........ 1", "tictactoe")
    assert plain.key(start.play(2)) != plain.target


def test_a_plug_in_says_what_its_bots_do_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def warm_up(self: TicTacToe, bots: Collection[str]) -> str | None:
        return f"learning tic-tac-toe once for {', '.join(bots)}"

    monkeypatch.setattr(TicTacToe, "warm_up", warm_up)
    code, _, err = cli(
        "tournament", "run", "--game", "tictactoe", "--bots", "random,random",
        "--games-per-pair", "2", "--out", tmp_path / "t",
    )  # fmt: skip
    assert code == 0, err
    assert "learning tic-tac-toe once for random, random\n" in err


def test_a_plug_in_joins_the_demo_with_its_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.tournament.demo import demo_configs

    monkeypatch.setattr(TicTacToe, "demo", DemoSetup(("random", "greedy"), 4))
    configs = demo_configs()
    assert list(configs) == [*GAME_NAMES, "tictactoe"]
    config = configs["tictactoe"]
    assert [(bot.name, bot.spec) for bot in config.bots] == [
        ("random", "random"),
        ("greedy", "greedy"),
    ]
    assert config.games_per_pair == 4
    assert config.openings is None
