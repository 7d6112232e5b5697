"""Round robins: seat-swapped pairs, duplicate dice, every game stored, resume, determinism."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.tournament.config import (
    BotEntry,
    ConfigError,
    bot_entries,
    build_config,
    load_config_file,
    split_bot_specs,
)
from referee.tournament.runner import run_tournament
from referee.tournament.schedule import schedule
from referee.tournament.store import TournamentStore
from tests.tournament.helpers import stored_games

runner = CliRunner()


def config(games_per_pair: int = 6, seed: str = "9"):
    bots = [BotEntry(name=name, spec=name) for name in ("random", "greedy")]
    return build_config(game="thax", bots=bots, games_per_pair=games_per_pair, seed=seed)


def test_every_pairing_plays_pairs_with_seats_swapped() -> None:
    jobs = schedule(
        build_config(
            game="thax",
            bots=[BotEntry(name=n, spec="random") for n in "abc"],
            games_per_pair=4,
        )
    )
    assert len(jobs) == 3 * 4
    for first, second in zip(jobs[::2], jobs[1::2], strict=True):
        assert first.pair == second.pair and first.seats == second.seats[::-1]


def test_duplicate_dice_give_each_seat_the_same_rolls_in_both_games(tmp_path: Path) -> None:
    run_tournament(
        tmp_path, config(games_per_pair=8), executor_factory=lambda: ThreadPoolExecutor(1)
    )
    stored = stored_games(tmp_path)
    for first, second in zip(stored[::2], stored[1::2], strict=True):
        assert first["opening_rolls"] == second["opening_rolls"]
        for seat in (0, 1):
            rolls_a = [t["roll"] for t in first["turns"] if t["seat"] == seat]
            rolls_b = [t["roll"] for t in second["turns"] if t["seat"] == seat]
            shorter = min(len(rolls_a), len(rolls_b))
            assert rolls_a[:shorter] == rolls_b[:shorter]


@pytest.mark.parametrize("game", ["trax", "thai"])
@pytest.mark.parametrize("seed", ["1", "2"])
def test_two_random_bots_play_two_different_games_in_a_seat_swapped_pair(
    tmp_path: Path, game: str, seed: str
) -> None:
    """Without dice the bots' own draws make the game: were their seeds the seat's, the
    swapped game would repeat the first move for move (and the ratings count it twice)."""
    bots = bot_entries(["random", "random"], [])
    pair = build_config(game=game, bots=bots, games_per_pair=2, seed=seed)
    run_tournament(tmp_path, pair, executor_factory=lambda: ThreadPoolExecutor(1))
    first, second = stored_games(tmp_path)
    assert [p["name"] for p in first["players"]] == ["random", "random#2"]
    assert [p["name"] for p in second["players"]] == ["random#2", "random"]
    assert [t["move"] for t in first["turns"]] != [t["move"] for t in second["turns"]]


def test_concurrency_does_not_change_the_games(tmp_path: Path) -> None:
    run_tournament(tmp_path / "one", config(), concurrency=1)
    run_tournament(tmp_path / "two", config(), concurrency=2)
    assert stored_games(tmp_path / "one") == stored_games(tmp_path / "two")


def test_resume_plays_only_what_is_missing_and_drops_a_half_written_line(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    run_tournament(whole, config(games_per_pair=10), concurrency=1)
    run_tournament(cut, config(games_per_pair=10), concurrency=1)
    lines = (cut / "games.jsonl").read_text().splitlines(keepends=True)
    (cut / "games.jsonl").write_text("".join(lines[:3]) + lines[3][:50])
    summary = run_tournament(cut, None, concurrency=1)
    assert summary.already == 3 and summary.played == 7
    assert stored_games(cut) == stored_games(whole)
    assert TournamentStore(cut).tally().jobs == 10


def test_a_folder_with_another_configuration_is_refused(tmp_path: Path) -> None:
    run_tournament(tmp_path, config(), concurrency=1)
    with pytest.raises(ConfigError, match="another configuration") as refused:
        run_tournament(tmp_path, config(seed="other"), concurrency=1)
    # The message names the field that differs, with both values.
    assert '(seed: "9" in the folder, "other" given)' in str(refused.value)
    bots = [BotEntry(name=n, spec=n) for n in ("random", "greedy")]
    three = build_config(game="thax", bots=[*bots, BotEntry(name="third", spec="random")])
    with pytest.raises(ConfigError) as refused:
        run_tournament(tmp_path, three.model_copy(update={"games_per_pair": 4}), concurrency=1)
    assert (
        'bots[2]: nothing in the folder, {"name":"third","spec":"random","tc":null} given; '
        "games_per_pair: 6 in the folder, 4 given; seed:"
    ) in str(refused.value)


def test_bot_lists_keep_options_with_their_bot() -> None:
    assert split_bot_specs("random,alphabeta:depth=4,time=1,greedy") == [
        "random",
        "alphabeta:depth=4,time=1",
        "greedy",
    ]


def test_odd_games_per_pair_is_refused() -> None:
    with pytest.raises(ConfigError, match="even"):
        config(games_per_pair=3)


def test_cli_round_robin_of_400_games_greedy_against_random(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy"]
    args += [
        "--games-per-pair",
        "400",
        "--seed",
        "1",
        "--out",
        str(out),
        "-q",
        "--concurrency",
        "2",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    stored = stored_games(out)
    assert len(stored) == 400
    assert all(g["result"] is not None for g in stored)
    status = runner.invoke(app, ["tournament", "status", str(out)])
    assert "400 of 400" in status.output
    info = json.loads((out / "tournament.json").read_text())
    assert info["config"]["seed"] == "1"


def test_cli_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["tournament", "run", "--game", "thax", "--bots", "random,nosuch", "--out", str(tmp_path)],
    )
    assert result.exit_code == 2
    assert "nosuch" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "tournament.json").exists()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            ["--rounds", str(10**12)],
            "Invalid value for '--rounds': Input should be less than or equal to 1000000 "
            "(see 'referee tournament run --help')",
        ),
        (
            ["--games-per-pair", "1000000", "--rounds", "1000"],
            "the schedule holds 1,000,000,000 games or matches (rounds x games per pairing x "
            "pairings); at most 100,000,000",
        ),
    ],
)
def test_a_schedule_too_large_to_keep_is_refused_in_one_line(
    tmp_path: Path, options: list[str], said: str
) -> None:
    """The runner keeps a byte per scheduled game: a schedule of 10**12 games is refused,
    not met with a MemoryError."""
    given = ["tournament", "run", "--game", "thax", "--bots", "random,greedy"]
    given += ["--out", str(tmp_path / "t")]
    result = runner.invoke(app, [*given, *options, "-q"])
    assert result.exit_code == 2
    assert result.output.strip() == f"referee: error: {said}"
    assert not (tmp_path / "t" / "tournament.json").exists()


def test_the_example_configuration_loads_and_command_line_values_win() -> None:
    path = Path(__file__).parents[2] / "examples" / "tournament.toml"
    config = load_config_file(path, {"seed": "other", "games_per_pair": None})
    assert config.game == "thax" and config.seed == "other" and config.games_per_pair == 100
    assert [bot.name for bot in config.bots] == ["random", "greedy", "perfect", "example"]
    assert config.bots[3].command == ["python3", str(path.parent / "bots" / "random_bot.py")]


def test_a_bad_configuration_file_names_the_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "thax"\ngames_per_pair = 3\n[[bots]]\nname = "a"\nspec = "random"\n')
    with pytest.raises(ConfigError, match=r"bad.toml: .*"):
        load_config_file(path, {})


def test_a_built_in_bot_that_raises_loses_by_crash_and_the_tournament_goes_on() -> None:
    from referee.games.agent import Bot, RandomBot
    from referee.games.thax import GAME
    from referee.records.model import Player
    from referee.tournament.play import GameSetup, play_game

    class Broken(Bot):
        name = "broken"

        def choose(self, state: object, history: object = ()) -> object:
            raise ZeroDivisionError("a bug")

    players = [Player(name="broken"), Player(name="random")]
    record = play_game(GameSetup(GAME, GAME.ruleset(), players, "s"), [Broken(), RandomBot()])
    assert record.result is not None
    assert (record.result.winner, record.result.reason.value) == (1, "crash")
    assert "ZeroDivisionError: a bug" in (record.result.detail or "")


def test_a_bot_given_twice_plays_itself_under_two_names() -> None:
    names = [entry.name for entry in bot_entries(["random", "greedy", "random"], [])]
    assert names == ["random", "greedy", "random#2"]


def test_a_built_in_bots_crash_is_told_by_its_exception_not_by_a_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.games.agent import Bot
    from referee.tournament import worker

    class Deep(Bot):
        name = "deep"

        def choose(self, state: object, history: object = ()) -> object:
            raise RecursionError("maximum recursion depth exceeded")

    made = worker.built_in_bot
    # The pool's workers are forked: they see the patched function.
    monkeypatch.setattr(
        worker,
        "built_in_bot",
        lambda game, spec, seat: Deep() if spec == "greedy" else made(game, spec, seat),
    )
    out = tmp_path / "t"
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--games-per-pair", "2", "-q"])
    assert result.exit_code == 3, result.output
    assert (
        "referee: warning: 2 games of this run lost by crash: "
        "greedy: RecursionError: maximum recursion depth exceeded\n"
    ) in result.output
    assert "logs" not in result.output
