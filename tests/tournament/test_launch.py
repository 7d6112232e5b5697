"""Real programs, first try (issue 15): launch settings, the Trax contest handshake, a forfeit's
last stderr line, failing fast on a program that cannot start, and the bots' environment
(issue 16). The programs are real processes: tests/players/bots/program.py."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.tournament.config import (
    BotEntry,
    ConfigError,
    build_config,
    load_config_file,
    with_bot_options,
    with_environment,
)
from referee.tournament.store import TournamentStore
from tests.cli.commands import one_error_line, referee
from tests.players.helpers import BOTS
from tests.tournament.helpers import stored_records

PROGRAM = BOTS / "program.py"
GAME = {"json": "thax", "trax": "trax"}
runner = CliRunner()


def run(out: Path, protocol: str, *extra: str, program: str = "") -> object:
    command = program or f"{sys.executable} {PROGRAM} {protocol} --data --sleep 2"
    name = "slow@trax" if protocol == "trax" else "slow"
    args = ["tournament", "run", "--game", GAME[protocol], "--bots", "random"]
    args += ["--external", f"{name}={command}", "--games-per-pair", "2", "--time-limit", "2"]
    return runner.invoke(app, [*args, "--out", str(out), "-q", *extra])


def records(out: Path) -> list:
    return stored_records(out)


@pytest.mark.parametrize("protocol", ["json", "trax"])
def test_a_slow_program_in_its_own_folder_plays_every_game_given_dir_and_startup_time(
    tmp_path: Path, protocol: str
) -> None:
    settings = ["--bot-option", f"slow.dir={BOTS}", "--bot-option", "slow.startup_time=6"]
    result = run(tmp_path / "t", protocol, *settings)
    assert result.exit_code == 0, result.output
    games = records(tmp_path / "t")
    assert len(games) == 2
    assert {g.result.reason.value for g in games if g.result} <= {"rules", "adjudicated"}


@pytest.mark.parametrize("protocol", ["json", "trax"])
def test_without_its_folder_a_program_stops_the_run_with_its_own_last_stderr_line(
    tmp_path: Path, protocol: str
) -> None:
    result = run(tmp_path / "t", protocol)
    assert result.exit_code == 2
    # One line of error (beside the notice that a time limit depends on the machine).
    lines = [
        line for line in result.output.splitlines() if line.strip() and not line.startswith("note:")
    ]
    assert len(lines) == 1, result.output
    message = lines[0]
    assert "bot 'slow' could not start" in message
    assert str(PROGRAM) in message  # the command
    assert str(tmp_path / "t" / "scratch") in message  # the working folder
    own_line = f"cannot open data/book.txt in {tmp_path / 't' / 'scratch'}"
    assert own_line in message
    # Its first two games are not stored (a run again plays them): the bot's log and
    # `status` say why.
    assert records(tmp_path / "t") == []
    log = (tmp_path / "t" / "logs" / "slow.stderr.log").read_text()
    notes = [line for line in log.splitlines() if line.startswith("[referee: game")]
    assert [note.split(" not stored")[0] for note in notes] == [
        "[referee: game 0",
        "[referee: game 1",
    ]
    assert all(own_line in note for note in notes)
    status = runner.invoke(app, ["tournament", "status", str(tmp_path / "t")])
    assert status.exit_code == 0 and "0 of 2 scheduled finished, 0 games stored" in status.output
    assert message.removeprefix("referee: error: ") in status.output


@pytest.mark.parametrize("protocol", ["json", "trax"])
def test_a_start_up_longer_than_startup_time_stops_the_run(tmp_path: Path, protocol: str) -> None:
    settings = ["--bot-option", f"slow.dir={BOTS}", "--bot-option", "slow.startup_time=0.3"]
    if protocol == "trax":
        settings += ["--time-limit", "0.5"]
    result = run(tmp_path / "t", protocol, *settings)
    assert result.exit_code == 2, result.output
    assert "could not start" in result.output
    assert "loading the opening book" in result.output  # its last stderr line
    assert "no hello within 300 ms" in result.output or "no move within 800 ms" in result.output


def test_fixing_the_launch_settings_and_running_again_finishes_the_tournament(
    tmp_path: Path,
) -> None:
    four = ["--games-per-pair", "4"]
    assert run(tmp_path / "t", "json", *four).exit_code == 2
    assert records(tmp_path / "t") == []
    settings = ["--bot-option", f"slow.dir={BOTS}", "--bot-option", "slow.startup_time=6"]
    result = run(tmp_path / "t", "json", *settings, *four, "--seed", "other")
    assert result.exit_code == 2 and "another configuration" in result.output  # other games
    result = run(tmp_path / "t", "json", *settings, *four)
    assert result.exit_code == 0, result.output  # no crash in this run
    reasons = sorted(g.result.reason.value for g in records(tmp_path / "t") if g.result)
    assert reasons == ["rules"] * 4
    info = json.loads((tmp_path / "t" / "tournament.json").read_text())
    assert info["config"]["bots"][1]["dir"] == str(BOTS)


TOML = """
game = "thax"
games_per_pair = 2
time_limit = 2.0

[[bots]]
name = "random"
spec = "random"

[[bots]]
name = "slow"
command = ["{python}", "engine/program.py", "json", "--data", "--sleep", "2"]
{settings}
env = {{ OWN_SETTING = "a secret value" }}
"""


def toml_tournament(tmp_path: Path, settings: str) -> Path:
    shutil.copytree(BOTS, tmp_path / "config" / "engine")
    path = tmp_path / "config" / "tournament.toml"
    path.write_text(TOML.format(python=sys.executable, settings=settings))
    (tmp_path / "elsewhere").mkdir()
    return path


def test_a_relative_program_in_a_toml_file_runs_from_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = toml_tournament(tmp_path, 'dir = "engine"\nstartup_time = 6.0')
    monkeypatch.chdir(tmp_path / "elsewhere")
    monkeypatch.setenv("RUNNER_ONLY_SECRET", "x")
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "run", "--config", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert all(g.result is not None and g.result.reason.value == "rules" for g in records(out))
    # tournament.json: the resolved command and folder, the env's names but not its values
    text = (out / "tournament.json").read_text()
    bot = json.loads(text)["config"]["bots"][1]
    engine = tmp_path / "config" / "engine"
    assert bot["command"][1] == str(engine / "program.py")
    assert bot["dir"] == str(engine)
    assert bot["env"] == {"OWN_SETTING": None}
    assert "a secret value" not in text
    # The program saw the minimal environment and its own variable, not the runner's secret.
    log = (out / "logs" / "slow.stderr.log").read_text()
    seen = set(log.splitlines()[0].removeprefix("environment: ").split())
    assert "OWN_SETTING" in seen and "RUNNER_ONLY_SECRET" not in seen
    assert seen <= {"PATH", "HOME", "LANG", "TMPDIR", "OWN_SETTING"}


def test_without_dir_the_toml_program_stops_the_run_with_its_last_stderr_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = toml_tournament(tmp_path, "")
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = runner.invoke(app, ["tournament", "run", "--config", str(path), "--out", "t"])
    assert result.exit_code == 2
    assert "could not start" in result.output and "cannot open data/book.txt" in result.output
    assert str(tmp_path / "config" / "engine" / "program.py") in result.output


def test_resume_takes_the_env_values_from_its_environment(tmp_path: Path) -> None:
    config = build_config(
        game="thax",
        bots=[
            BotEntry(name="random", spec="random"),
            BotEntry(name="p", command=["p"], env={"TOKEN": "v"}),
        ],
    )
    stored = TournamentStore(tmp_path)
    from referee.tournament.config import without_secrets

    kept = stored.create(without_secrets(config)).config
    assert kept.bots[1].env == {"TOKEN": None}
    assert with_environment(kept, {"TOKEN": "w"}).bots[1].env == {"TOKEN": "w"}
    with pytest.raises(ConfigError, match="TOKEN"):
        with_environment(kept, {})


def test_the_ghost_program_stops_the_run_at_once_and_keep_going_records_crashes(
    tmp_path: Path,
) -> None:
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy"]
    args += ["--external", "ghost=/nonexistent/bot", "--games-per-pair", "6", "-q"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert result.exit_code == 2
    assert "/nonexistent/bot" in result.output and "ghost" in result.output
    assert len(result.output.strip().splitlines()) == 1
    stored = records(tmp_path / "a")
    assert stored and all("ghost" not in [p.name for p in g.players] for g in stored)

    result = runner.invoke(app, [*args, "--out", str(tmp_path / "b"), "--keep-going"])
    assert result.exit_code == 3, result.output
    games = records(tmp_path / "b")
    assert len(games) == 18
    with_ghost = [g for g in games if "ghost" in [p.name for p in g.players]]
    assert len(with_ghost) == 12
    for game in with_ghost:
        assert game.result is not None and game.result.reason.value == "crash"
        assert "No such file or directory" in (game.result.detail or "")


def test_a_program_that_cannot_start_ends_a_piped_run_in_its_error_line_alone(
    tmp_path: Path,
) -> None:
    """With the progress shown (no -q) and standard error a pipe, where rich draws the bar once
    when it stops: the error comes alone, as `referee` says every error."""
    out = referee(
        *["tournament", "run", "--game", "thax", "--bots", "random,greedy"],
        *["--external", "ghost=/nonexistent/bot", "--out", str(tmp_path / "a")],
    )
    one_error_line(out, "ghost", "/nonexistent/bot")
    assert out.stdout == b""


def test_launch_settings_belong_to_programs_and_name_a_known_bot() -> None:
    config = build_config(
        game="thax",
        bots=[BotEntry(name="random", spec="random"), BotEntry(name="p", command=["p"])],
    )
    with pytest.raises(ConfigError, match="built in"):
        with_bot_options(config, ["random.dir=/tmp"], Path("/"))
    with pytest.raises(ConfigError, match="no bot 'q'"):
        with_bot_options(config, ["q.dir=/tmp"], Path("/"))
    with pytest.raises(ConfigError, match="startup_time"):
        with_bot_options(config, ["p.startup_time=soon"], Path("/"))
    with pytest.raises(ConfigError, match="colour"):
        with_bot_options(config, ["p.colour=red"], Path("/"))
    with pytest.raises(ConfigError, match="quotation"):
        with_bot_options(config, ["p.args=--book 'my book"], Path("/"))
    with pytest.raises(ConfigError, match="not a launch setting"):
        with_bot_options(config, ["p.command=other"], Path("/"))
    changed = with_bot_options(
        config,
        ["p.dir=engine", "p.env=A=1=2", "p.trax_team=true", "p.time_limit=0.5"],
        Path("/base"),
    )
    program = changed.bots[1]
    assert program.dir == "/base/engine" and program.env == {"A": "1=2"}
    assert program.trax_team and program.time_limit == 0.5


PROGRAM_CONFIG = build_config(
    game="thax", bots=[BotEntry(name="random", spec="random"), BotEntry(name="p", command=["p"])]
)


@given(st.lists(st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=8)))
def test_bot_option_args_are_split_as_a_shell_would(words: list[str]) -> None:
    config = PROGRAM_CONFIG
    items = [f"p.args={shlex.join(words)}"] if words else []
    assert with_bot_options(config, items, Path("/")).bots[1].args == words


def test_the_example_configuration_runs_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Path(__file__).parents[2] / "examples" / "tournament.toml"
    monkeypatch.chdir(tmp_path)
    config = load_config_file(path, {})
    assert config.bots[3].command[1] == str(path.parent / "bots" / "random_bot.py")


def test_a_worker_stops_its_batch_after_two_failed_starts_only_unless_keeping_going(
    tmp_path: Path,
) -> None:
    from referee.tournament.schedule import schedule
    from referee.tournament.worker import BatchOptions, play_batch

    config = build_config(
        game="thax",
        bots=[
            BotEntry(name="random", spec="random"),
            BotEntry(name="ghost", command=["/nonexistent/bot"]),
        ],
        games_per_pair=6,
    )
    jobs = schedule(config)
    stopped = play_batch(config, jobs, BatchOptions("t", str(tmp_path), keep_going=False))
    assert [name for name, _ in stopped.unstarted] == ["ghost", "ghost"]
    assert "/nonexistent/bot" in stopped.unstarted[1][1]
    assert stopped.games == [] and stopped.started == frozenset()
    played = play_batch(config, jobs, BatchOptions("t", str(tmp_path), keep_going=True))
    assert played.unstarted == [] and len(played.games) == 6
    assert all(game.valid for game in played.games)


@pytest.mark.parametrize(
    "fix",
    [
        ["--external", "mine={python} program.py json --data", "--bot-option", "mine.dir=engine"],
        ["--external", "mine={python} engine/program.py json"],  # another command: no data
    ],
)
def test_a_program_forgotten_in_its_folder_run_fixed_and_run_again_leaves_no_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fix: list[str]
) -> None:
    """Acceptance (issue 30): the script is named by a path that only works from its own
    folder, and no `dir` is given; the run stops (exit 2) storing nothing, and the same
    command with the launch settings fixed plays every game: no crash in the table."""
    shutil.copytree(BOTS, tmp_path / "engine")
    monkeypatch.chdir(tmp_path)
    command = ["tournament", "run", "--game", "thax", "--bots", "random", "--out", "t", "-q"]
    forgotten = ["--external", f"mine={sys.executable} program.py json --data"]
    first = runner.invoke(app, [*command, *forgotten])
    assert first.exit_code == 2, first.output
    assert "bot 'mine' could not start" in first.output
    assert records(tmp_path / "t") == []

    again = runner.invoke(app, [*command, *(part.format(python=sys.executable) for part in fix)])
    assert again.exit_code == 0, again.output
    assert "2 games played, 2 of 2 finished" in again.output
    games = records(tmp_path / "t")
    assert sorted(g.event.game_number for g in games) == [0, 1]
    assert all(g.result is not None and g.result.reason.value == "rules" for g in games)
    table = runner.invoke(app, ["ratings", "t", "--format", "json"])
    assert table.exit_code == 0, table.output
    standings = json.loads(table.output)[0]["standings"]
    assert {row["bot"]: row["forfeits"] for row in standings} == {"random": 0, "mine": 0}
    status = runner.invoke(app, ["tournament", "status", "t"])
    assert "crash" not in status.output and "last run stopped" not in status.output


def test_a_game_a_program_could_not_start_is_played_again_once_it_has_started(
    tmp_path: Path,
) -> None:
    """The program fails its first start only: its first game is not stored as a crash but
    played again after its second game showed it can start (the old runner stored a crash
    and exited 3)."""
    from referee.tournament.runner import run_tournament

    marker = tmp_path / "tried"
    holding = BOTS / "holding.py"
    script = (
        f"test -e {marker} || {{ touch {marker}; echo first start fails >&2; exit 1; }}; "
        f"exec {sys.executable} {holding} 0 {tmp_path}"
    )
    config = build_config(
        game="thax",
        bots=[
            BotEntry(name="random", spec="random"),
            BotEntry(name="flaky", command=["sh", "-c", script]),
        ],
    )
    summary = run_tournament(tmp_path / "t", config)
    assert summary.crashes == 0 and summary.played == 2
    games = records(tmp_path / "t")
    assert sorted(g.event.game_number for g in games) == [0, 1]
    assert all(g.result is not None and g.result.reason.value == "rules" for g in games)
    log = (tmp_path / "t" / "logs" / "flaky.stderr.log").read_text()
    assert "first start fails" in log
    assert "[referee: game 0 not stored: could not start: " in log
    assert "exited with code 1; stderr: first start fails]" in log
    assert len((tmp_path / "ended.txt").read_text().splitlines()) == 2


def test_a_fix_outside_referee_is_played_by_resume(tmp_path: Path) -> None:
    """The program's data file was missing from its working folder: once it is there,
    `resume` (the settings kept in tournament.json) plays the games that were not stored."""
    out = tmp_path / "t"
    assert run(out, "json").exit_code == 2
    shutil.copytree(BOTS / "data", out / "scratch" / "data")
    result = runner.invoke(app, ["tournament", "resume", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "2 games played, 2 of 2 finished" in result.output
    assert all(g.result is not None and g.result.reason.value == "rules" for g in records(out))
    assert "last run stopped" not in runner.invoke(app, ["tournament", "status", str(out)]).output
