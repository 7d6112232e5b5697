"""Hostile values (issue 31, bounds everywhere): every numeric option has a range checked where
the command line reads it; JSON nested too deep, huge names, search depths no bot can reach,
records whose start cannot be built and bytes that are no UTF-8 give one line or a result,
never a traceback or a hang. The commands run in a subprocess where a real process matters
(standard input, stdout's encoding), each under a timeout."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.records.io import MAX_NESTING, RecordError, check_nesting
from tests.cli.commands import THAX, base_args, numeric_options, one_error_line, referee
from tests.cli.test_fuzz_commands import run

IN_PROCESS_TIMEOUT = 30
HOSTILE = ["-1", "0", str(2**64), str(10**30), "nan", "inf", "", "\udcff"]
"""Values for every numeric option; those after the first two are never in range."""


OPTIONS = numeric_options()


def test_there_are_numeric_options_to_check() -> None:
    names = {(" ".join(path), option) for path, option, _ in OPTIONS}
    assert {("perft", "--depth"), ("select", "--first"), ("openings", "--plies")} <= names
    assert ("ratings", "--samples") in names and ("tournament run", "--time-limit") in names


@pytest.mark.parametrize(("path", "option", "param"), OPTIONS, ids=lambda v: str(v))
def test_every_numeric_option_has_a_range(path: tuple[str, ...], option: str, param: Any) -> None:
    # --games-per-pair's lower end is its callback's (an even number >= 2), in its own words
    lower = param.min is not None or param.callback is not None
    assert lower and param.max is not None, f"{' '.join(path)} {option}"
    assert param.max < 2**63, "a maximum a C integer holds"


@contextmanager
def bounded(seconds: int) -> Iterator[None]:
    """A command run in this process stops with TimeoutError after `seconds` (a hang)."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(("path", "option", "param"), OPTIONS, ids=lambda v: str(v))
@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_a_hostile_value_is_refused_in_one_line(
    path: tuple[str, ...], option: str, param: Any, value: str, tmp_path: Path
) -> None:
    args = [*path, *base_args(path, tmp_path), option, value]
    with bounded(IN_PROCESS_TIMEOUT):
        code = run(*args)
    if value not in HOSTILE[:2]:
        assert code == 2, f"referee {' '.join(args)} gave {code}"


DEEP = ('{"a":' * 100_000 + "1" + "}" * 100_000).encode()


@pytest.mark.parametrize("command", ["show", "ratings", "report"])
def test_deep_json_on_stdin_is_one_line_with_its_place(command: str, tmp_path: Path) -> None:
    args = [command, "-"] + (["-o", str(tmp_path / "r.html")] if command == "report" else [])
    one_error_line(referee(*args, stdin=DEEP), "<stdin>", "nested deeper than 64", "line 1")


def test_validate_reports_deep_json_as_an_invalid_game() -> None:
    out = referee("validate", "-", stdin=DEEP)
    assert out.returncode == 1
    assert b"0 valid, 1 invalid" in out.stdout


def test_deep_json_in_a_file_without_a_known_extension(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_bytes(DEEP)
    one_error_line(referee("ratings", str(path)), str(path), "nested deeper than 64")


def test_a_deep_tournament_file_and_a_deep_configuration(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "tournament.json").write_bytes(DEEP)
    one_error_line(referee("tournament", "status", str(folder)), "tournament.json", "nested")
    config = tmp_path / "deep.toml"
    config.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    out = referee("tournament", "run", "--config", str(config), "--out", str(tmp_path / "u"))
    one_error_line(out, "deep.toml", "nested too deeply")


def nested(depth: int, text: str) -> Any:
    """`depth` levels of arrays and objects, a string in the innermost."""
    value: Any = text
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


@settings(max_examples=60, deadline=None)
@given(
    depth=st.integers(1, 2 * MAX_NESTING),
    text=st.text(alphabet='[]{}"\\ab', max_size=12),
    as_text=st.booleans(),
)
def test_nesting_is_refused_exactly_beyond_the_limit(depth: int, text: str, as_text: bool) -> None:
    """Brackets, quotes and backslashes inside strings are no nesting."""
    document = json.dumps(nested(depth, text))
    if depth <= MAX_NESTING:
        check_nesting(document if as_text else document.encode())
    else:
        with pytest.raises(RecordError, match=f"deeper than {MAX_NESTING} levels"):
            check_nesting(document if as_text else document.encode())


def first_record(change: dict[str, Any]) -> dict[str, Any]:
    record = json.loads(THAX.read_text().splitlines()[0])
    record.update(change)
    return record


@pytest.mark.parametrize(
    "change", [{"ruleset": "thax/standard@1?bogus=1"}, {"start": "no position"}], ids=str
)
def test_a_report_of_a_record_whose_start_cannot_be_built(
    change: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(first_record(change)) + "\n")
    out = referee("report", str(path), "-o", str(tmp_path / "r.html"))
    assert out.returncode == 0, out.stderr
    assert "the record stops replaying" in (tmp_path / "r.html").read_text()


@pytest.mark.parametrize("command", ["report", "ratings", "show"])
def test_a_huge_name_is_refused_at_once(command: str, tmp_path: Path) -> None:
    record = first_record({})
    record["players"][0]["name"] = "x" * 1_000_000
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    args = [command, str(path)] + (["-o", str(tmp_path / "r.html")] if command == "report" else [])
    one_error_line(referee(*args), "/players/0/name", "256 characters at most")


def test_a_name_of_256_characters_is_read(tmp_path: Path) -> None:
    record = first_record({})
    record["players"][0]["name"] = "é" * 256
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert run("validate", "-q", path) == 0


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("takhteh", "expectimax:depth=2000"),
        ("thai", "alphabeta:quiescence=65"),
        ("trax", "search:depth=65"),
    ],
)
def test_a_search_deeper_than_a_bot_can_go_is_refused(game: str, spec: str, tmp_path: Path) -> None:
    out = referee(
        "tournament", "run", "--out", str(tmp_path / "t"), "-g", game, "--bots", f"{spec},random"
    )
    one_error_line(out, "64 or less")
    assert not (tmp_path / "t" / "games.jsonl").exists()


def test_bytes_that_are_no_utf8_in_options(tmp_path: Path) -> None:
    out = referee("select", str(THAX), "--player", "\udcff")
    assert out.returncode == 0 and out.stdout == b""
    out = referee(
        "tournament", "run", "--out", str(tmp_path / "t"), "-g", "thax", "--bots", "\udcff,random"
    )
    one_error_line(out, "bot spec '\\xff' is not UTF-8 text")


def test_bytes_that_are_no_utf8_in_a_file_name(tmp_path: Path) -> None:
    path = tmp_path / "games\udcff.jsonl"
    path.write_bytes(THAX.read_bytes())
    out = referee("validate", "--json", str(path))
    assert out.returncode == 0
    files = {json.loads(line)["file"] for line in out.stdout.splitlines()}
    assert files == {str(path).replace("\udcff", "\\xff")}
    out = referee("report", str(path), "-o", str(tmp_path / "r.html"))
    assert out.returncode == 0
    assert "games\\xff.jsonl" in (tmp_path / "r.html").read_text(encoding="utf-8")
    out = referee("show", str(tmp_path / "missing\udcff.jsonl"))
    one_error_line(out, "missing\\xff.jsonl")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_encoding_without_the_characters_written(encoding: str, tmp_path: Path) -> None:
    """A table's ± and a name's letters in an encoding that has none: escaped, no traceback."""
    record = first_record({})
    record["players"][0]["name"] = "\u0101\u4e00"
    path = tmp_path / "games\udcff.jsonl"
    path.write_text(json.dumps(record) + "\n")
    out = referee("ratings", str(path), env={"PYTHONIOENCODING": encoding})
    assert out.returncode == 0, out.stderr
    assert b"\\u0101\\u4e00" in out.stdout
    out = referee("show", str(tmp_path / "missing\u00e9.jsonl"), env={"PYTHONIOENCODING": encoding})
    one_error_line(out, "missing")


@pytest.mark.parametrize(
    "args",
    [
        ["export", str(THAX), "-o"],
        ["ratings", str(THAX), "--plot"],
        ["stats", str(THAX), "-o"],
        ["show", str(THAX), "--svg"],
        ["openings", "-g", "trax", "-o"],
    ],
    ids=lambda args: args[0],
)
def test_an_empty_output_path_is_the_current_folder(args: list[str], tmp_path: Path) -> None:
    """`-o ''` names the current folder, which is no file to write (a traceback before)."""
    out = subprocess.run(
        [sys.executable, "-m", "referee", *args, ""], cwd=tmp_path, capture_output=True, check=False
    )
    assert b"Traceback" not in out.stderr
    one_error_line(out, "cannot write .: Is a directory")
    assert list(tmp_path.iterdir()) == []
