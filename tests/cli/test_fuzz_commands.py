"""Fuzzing every command (issue 16 item 8): mutated records and hostile option values never
give a traceback, only an exit code of 0, 1, 2 or 3; and `convert` never writes a file that
`validate` rejects when its input was valid.

The default run is short (some 150 command runs). The long campaign:
    .venv/bin/python -m pytest tests/cli/test_fuzz_commands.py -m slow
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.records.formats import RECORD_FORMATS
from tests.fuzzing import mutated

SAMPLES = Path(__file__).parents[1] / "validator" / "samples"
FILES = sorted(SAMPLES.iterdir())
FORMATS = {entry.name: entry.extensions[0] for entry in RECORD_FORMATS}
EXIT_CODES = {0, 1, 2, 3}
QUICK = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(QUICK, max_examples=1500, derandomize=False)
runner = CliRunner()


def run(*args: object) -> int:
    """One command, in process: no exception may escape and nothing may print a traceback."""
    result = runner.invoke(app, [str(arg) for arg in args])
    shown = " ".join(map(str, args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"referee {shown}: {result.exception!r}") from result.exception
    assert "Traceback" not in result.output, f"referee {shown}:\n{result.output}"
    assert result.exit_code in EXIT_CODES, f"referee {shown}: exit {result.exit_code}"
    return result.exit_code


@contextmanager
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def check_record_commands(data: st.DataObject, content: bytes, suffix: str) -> None:
    """validate, convert to a drawn format (and validate what it wrote), and one reader."""
    with folder() as where:
        source = where / f"games{suffix}"
        source.write_bytes(content)
        valid = run("validate", "-q", source) == 0
        to = data.draw(st.sampled_from(sorted(FORMATS)), label="to")
        target = where / f"out{FORMATS[to]}"
        converted = run("convert", source, target)
        if converted in (0, 1):
            assert target.exists()
        else:
            assert not target.exists(), "a failed convert leaves no file"
        if valid and target.exists():
            assert run("validate", "-q", target) == 0, f"convert to {to} wrote a bad file"
        reader = data.draw(st.sampled_from(["ratings", "report", "show", "moves"]), label="cmd")
        if reader == "report":
            run("report", source, "-o", where / "report.html")
        elif reader == "moves":
            turn = data.draw(st.integers(-3, 40), label="turn")
            run("moves", "--record", source, "--turn", turn, "--roll", "31")
        else:
            run(reader, source)


def mutated_records(data: st.DataObject, template: Path) -> None:
    sample = data.draw(st.sampled_from(FILES), label="sample")
    check_record_commands(data, data.draw(mutated(sample.read_bytes())), sample.suffix)


HOSTILE_INTS = st.one_of(
    st.integers(-3, 4), st.sampled_from(["-1", "abc", "1.5", "", "nan", str(10**30), "0x10"])
)
TEXT = st.one_of(
    st.sampled_from(["", " ", "-", "@0+", "W:W1:B2", "4HPwATDgc/ABMA", "31", "77", "0", "x" * 300]),
    st.text(max_size=20),
)
GAMES = st.sampled_from(["thax", "takhteh", "trax", "thai", "", "chess", "THAX"])


def engine_options(data: st.DataObject) -> list[object]:
    command = data.draw(st.sampled_from(["moves", "perft"]), label="command")
    args: list[object] = [command, "-g", data.draw(GAMES, label="game")]
    if command == "perft":
        depth = data.draw(st.one_of(st.integers(-3, 2), st.sampled_from(["x", "", "1.5"])))
        args += ["--depth", depth]
    for option in ("--variant", "--position", "--roll"):
        if data.draw(st.booleans(), label=option):
            args += [option, data.draw(TEXT, label=option)]
    return args


BOTS = st.lists(
    st.sampled_from(["random", "greedy", "random:x=1", "greedy:depth=-1", "nosuch", "", ","]),
    min_size=0,
    max_size=3,
)


def tournament_options(data: st.DataObject, out: Path) -> list[object]:
    args: list[object] = ["tournament", "run", "--out", out, "-q"]
    args += ["-g", data.draw(st.sampled_from(["thax", "trax", "takhteh", "nosuch"]), label="g")]
    args += ["--bots", ",".join(data.draw(BOTS, label="bots"))]
    args += ["--turn-cap", data.draw(st.sampled_from([2, 3, -1, 0, "x"]), label="turn cap")]
    choices: dict[str, st.SearchStrategy[object]] = {
        "--games-per-pair": st.sampled_from([2, 4, -2, 0, 3, 10**30, "two"]),
        "--seed": TEXT,
        "--variant": st.sampled_from(["standard", "8x8", "", "nosuch", "STANDARD"]),
        "--option": st.sampled_from(["match=abc", "match=0", "match=-1", "=", "x=1", "match"]),
        "--time-limit": st.sampled_from(["nan", "inf", "-1", "0", "1e-9", "x"]),
    }
    for option, values in choices.items():
        if data.draw(st.booleans(), label=option):
            args += [option, data.draw(values, label=option)]
    return args


def hostile_options(data: st.DataObject, template: Path) -> None:
    """Engine tools, show, and the tournament commands on a played folder whose files may be
    mutated, with values drawn to be wrong."""
    kind = data.draw(st.sampled_from(["engine", "show", "tournament", "folder"]), label="kind")
    with folder() as where:
        if kind == "engine":
            run(*engine_options(data))
        elif kind == "show":
            sample = data.draw(st.sampled_from(FILES), label="sample")
            args = ["show", sample, "--svg", where / "x.svg"]
            for option in ("--turn", "--game-number"):
                if data.draw(st.booleans(), label=option):
                    args += [option, data.draw(HOSTILE_INTS, label=option)]
            run(*args)
        elif kind == "tournament":
            run(*tournament_options(data, where / "t"))
        else:
            out = where / "t"
            shutil.copytree(template, out)
            name = data.draw(st.sampled_from(["tournament.json", "games.jsonl"]), label="file")
            path = out / name
            path.write_bytes(data.draw(mutated(path.read_bytes()), label="mutated"))
            command = data.draw(st.sampled_from(["status", "resume", "extend"]), label="command")
            if command == "extend":
                run("tournament", "extend", out, "--games-per-pair", data.draw(HOSTILE_INTS))
            else:
                run("tournament", command, out, *(["-q"] if command == "resume" else []))
            run("ratings", out)


CASES: dict[str, Callable[[st.DataObject, Path], None]] = {
    "mutated records": mutated_records,
    "hostile options": hostile_options,
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A played tournament folder, made once: its files are the same in every example."""
    out = tmp_path_factory.mktemp("fuzz") / "t"
    args = ["--out", out, "-g", "thax", "--bots", "random,greedy", "--turn-cap", "4", "-q"]
    assert run("tournament", "run", *args) == 0
    return out


@pytest.mark.parametrize("case", sorted(CASES))
@QUICK
@given(data=st.data())
def test_no_command_gives_a_traceback(case: str, template: Path, data: st.DataObject) -> None:
    CASES[case](data, template)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
@LONG
@given(data=st.data())
def test_no_command_gives_a_traceback_long_campaign(
    case: str, template: Path, data: st.DataObject
) -> None:
    CASES[case](data, template)
