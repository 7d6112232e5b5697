"""Real programs, first try (issue 15): launch settings, the Trax contest handshake, a forfeit's
last stderr line, failing fast on a program that cannot start, and the bots' environment
(issue 16). The programs are real processes: tests/tournament/bots/program.py."""

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

BOTS = Path(__file__).parent / "bots"
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
    return TournamentStore(out).records()


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
    games = records(tmp_path / "t")
    assert len(games) == 2  # its first two games, stored for a run again
    for game in games:
        assert game.result is not None and game.result.reason.value == "crash"
        assert (game.result.detail or "").endswith(own_line)


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
    assert len(records(tmp_path / "t")) == 2
    settings = ["--bot-option", f"slow.dir={BOTS}", "--bot-option", "slow.startup_time=6"]
    result = run(tmp_path / "t", "json", *settings, *four, "--seed", "other")
    assert result.exit_code == 2 and "another configuration" in result.output  # other games
    result = run(tmp_path / "t", "json", *settings, *four)
    assert result.exit_code == 0, result.output  # no crash in this run
    reasons = sorted(g.result.reason.value for g in records(tmp_path / "t") if g.result)
    assert reasons == ["crash", "crash", "rules", "rules"]
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
    assert len(records(tmp_path / "a")) < 18

    result = runner.invoke(app, [*args, "--out", str(tmp_path / "b"), "--keep-going"])
    assert result.exit_code == 3, result.output
    games = records(tmp_path / "b")
    assert len(games) == 18
    with_ghost = [g for g in games if "ghost" in [p.name for p in g.players]]
    assert len(with_ghost) == 12
    for game in with_ghost:
        assert game.result is not None and game.result.reason.value == "crash"
        assert "No such file or directory" in (game.result.detail or "")


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
    from referee.tournament.worker import play_batch

    config = build_config(
        game="thax",
        bots=[
            BotEntry(name="random", spec="random"),
            BotEntry(name="ghost", command=["/nonexistent/bot"]),
        ],
        games_per_pair=6,
    )
    jobs = schedule(config)
    stopped = play_batch(config, jobs, "t", str(tmp_path), keep_going=False)
    assert stopped.cannot_start is not None and stopped.cannot_start[0] == "ghost"
    assert len(stopped.games) == 2 and stopped.started == frozenset()
    played = play_batch(config, jobs, "t", str(tmp_path), keep_going=True)
    assert played.cannot_start is None and len(played.games) == 6
    assert all(game.valid for game in played.games)
