"""Start-up: the command line imports pandas, matplotlib, numpy and dask only where used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main
from hypothesis import given
from hypothesis import strategies as st
from typer.core import TyperGroup
from typer.testing import CliRunner

from referee.cli.app import COMMAND_MODULES, MODULES, build_app, wanted_modules

HEAVY = ("pandas", "matplotlib", "numpy", "dask", "distributed")

# Runs the command in a fresh interpreter and prints, as it exits, the heavy modules loaded.
PROBE = """
import atexit, sys
heavy = {heavy!r}
atexit.register(lambda: print("loaded:", sorted(m for m in heavy if m in sys.modules),
                              file=sys.stderr))
sys.argv = ["referee", *{args!r}]
{body}
"""


def loaded(
    args: list[str],
    body: str = "from referee.cli.app import main; main()",
    watched: tuple[str, ...] = HEAVY,
) -> list[str]:
    """The modules of `watched` that `referee ARGS` (or `body`) has loaded as it exits."""
    code = PROBE.format(heavy=watched, args=args, body=body)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("loaded:"))
    return eval(line.removeprefix("loaded:"))  # a list literal printed just above


def test_importing_the_app_loads_no_heavy_library() -> None:
    assert loaded([], body="from referee.cli.app import app") == []


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["moves", "--game", "takhteh", "--roll", "31"],
        ["perft", "--game", "trax", "--depth", "1"],
        ["tournament", "run", "--help"],
    ],
)
def test_light_commands_load_no_heavy_library(args: list[str]) -> None:
    assert loaded(args) == []


def test_the_probe_sees_a_heavy_import() -> None:
    """The check above can fail: a command that draws a plot loads matplotlib."""
    assert "numpy" in loaded([], body="import numpy")


SAMPLES = Path(__file__).parents[1] / "validator" / "samples"

# What validating one file has no use for: the bots (games/agent.py), a process pool, and
# what only other output needs (html for Markdown cells, rich's emoji codes).
NOT_FOR_VALIDATE = (
    "referee.games.agent",
    "multiprocessing",
    "concurrent.futures",
    "html",
    "rich._emoji_codes",
)


def test_validate_loads_only_what_it_uses() -> None:
    args = ["validate", "-q", str(SAMPLES / "thax.jsonl")]
    assert loaded(args, watched=NOT_FOR_VALIDATE) == []


def test_validate_with_jobs_loads_the_process_pool() -> None:
    """The check above can fail: files checked at once need the process pool."""
    files = [str(SAMPLES / "thax.jsonl"), str(SAMPLES / "takhteh.jsonl")]
    watched = loaded(["validate", "-q", "--jobs", "2", *files], watched=NOT_FOR_VALIDATE)
    assert {"multiprocessing", "concurrent.futures"} <= set(watched)


def referee_modules(args: list[str]) -> set[str]:
    """The referee modules that `referee ARGS` has loaded as it exits."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('modules:', sorted(m for m in sys.modules"
        " if m.startswith('referee')), file=sys.stderr))\n"
        f"sys.argv = ['referee', *{args!r}]\n"
        "from referee.cli.app import main; main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("modules:"))
    return set(eval(line.removeprefix("modules:")))


def test_help_builds_no_record_model_and_loads_no_engine() -> None:
    """`--help` lists every command's options without the pydantic record models (building
    them is most of a command's start) or any game's engine."""
    modules = referee_modules(["--help"])
    assert "referee.cli.archive" in modules  # the probe sees the command modules
    assert "referee.records.model" not in modules
    # The registry (games/__init__.py) names the games in the help; neither the engine
    # interface nor a game's own package is loaded.
    engines = {name for name in modules if name.startswith("referee.games.")}
    assert engines == set()


def test_validate_loads_the_record_model() -> None:
    """The check above can fail: a command that reads records builds the model."""
    assert "referee.records.model" in referee_modules(["schema"])


def test_shell_completion_is_offered_and_completes_commands() -> None:
    """`--install-completion` is in the help, and the completion script's request (the
    variable the script sets) is answered with the commands and options that fit."""
    import os

    help_text = subprocess.run(
        [sys.executable, "-m", "referee", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text

    def complete(words: str) -> list[str]:
        env = {
            **os.environ,
            "_REFEREE_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - 1),
        }
        code = "import sys; sys.argv = ['referee']; from referee.cli.app import main; main()"
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert complete("referee tourn") == ["tournament"]
    assert set(complete("referee tournament run --ga")) == {"--game", "--games-per-pair"}


def _commands(app: typer.Typer) -> list[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return list(group.commands)


@pytest.mark.parametrize("module", MODULES)
def test_each_command_is_built_with_the_module_that_registers_it(module: str) -> None:
    named = sorted(name for name, owner in COMMAND_MODULES.items() if owner == module)
    assert sorted(_commands(build_app([module]))) == named


def test_the_whole_app_lists_every_command_once() -> None:
    assert sorted(_commands(build_app())) == sorted(COMMAND_MODULES)


@pytest.mark.parametrize("command", sorted(COMMAND_MODULES))
def test_a_command_built_alone_reads_as_in_the_whole_app(command: str) -> None:
    alone = CliRunner().invoke(build_app([COMMAND_MODULES[command]]), [command, "--help"])
    whole = CliRunner().invoke(build_app(), [command, "--help"])
    assert alone.exit_code == whole.exit_code == 0
    assert alone.output == whole.output


def test_a_command_loads_its_own_module_alone() -> None:
    modules = referee_modules(["perft", "--game", "thax", "--depth", "1"])
    command_modules = {name for name in modules if name.startswith("referee.cli.")}
    assert "referee.cli.engine" in command_modules
    assert command_modules.isdisjoint(
        {f"referee.cli.{module}" for module in MODULES} - {"referee.cli.engine"}
    )


@given(
    st.lists(st.sampled_from([*COMMAND_MODULES, "--help", "--version", "valdate", "-", "x"])),
    st.booleans(),
)
def test_the_command_line_builds_its_command_or_all(args: list[str], completing: bool) -> None:
    environ = {"_REFEREE_COMPLETE": "bash_complete"} if completing else {}
    wanted = wanted_modules(args, environ)
    if args and args[0] in COMMAND_MODULES and not completing:
        assert wanted == (COMMAND_MODULES[args[0]],)
    else:
        assert wanted == MODULES
