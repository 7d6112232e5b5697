"""No traceback from any command on what issue 16 found; convert writes all or nothing; PDN
tags and comments read in linear memory."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games import get_game
from referee.games.agent import RandomBot
from referee.records.io import record_to_dict
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game

runner = CliRunner()


def played(game_name: str, turn_cap: int = 12) -> dict:
    game = get_game(game_name)
    players = [Player(name="a", kind="bot", spec="random"), Player(name="b")]
    bots = [RandomBot(), RandomBot()]
    return record_to_dict(
        play_game(GameSetup(game, game.ruleset(), players, "s", turn_cap=turn_cap), bots)
    )


def write(path: Path, *records: dict) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def invoke(*args: str):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


@pytest.mark.parametrize("target", ["out.pdn", "out.mat", "out.trx"])
def test_convert_to_a_format_of_another_game_is_one_line(tmp_path: Path, target: str) -> None:
    source = write(tmp_path / "thax.jsonl", played("thax"))
    result = invoke("convert", source, tmp_path / target)
    assert result.exit_code == 2
    assert "is a thax game" in result.output and len(result.output.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thax.jsonl"]


def test_a_failed_convert_leaves_an_existing_target_as_it_was(tmp_path: Path) -> None:
    source = write(tmp_path / "thax.jsonl", played("thax"))
    target = tmp_path / "old.pdn"
    target.write_text("kept")
    assert invoke("convert", source, target).exit_code == 2
    assert target.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.pdn", "thax.jsonl"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["turns"][0].update(comment="a } b\nc"), "cannot hold '}'"),
        (lambda r: r.update(tags={"a b": "c"}), "'a b' is not a PDN tag name"),
    ],
)
def test_what_pdn_cannot_hold_is_left_out_with_the_reason(tmp_path: Path, change, message) -> None:
    odd, plain = played("thai"), played("thai")
    change(odd)
    source = write(tmp_path / "thai.jsonl", odd, plain)
    result = invoke("convert", source, tmp_path / "out.pdn")
    assert result.exit_code == 1
    assert message in result.output and "1 game written" in result.output
    assert invoke("validate", tmp_path / "out.pdn").exit_code == 0


def test_a_thai_comment_with_a_brace_converts_to_json_and_validates(tmp_path: Path) -> None:
    record = played("thai")
    record["turns"][0]["comment"] = "a } b"
    source = write(tmp_path / "thai.jsonl", record)
    assert invoke("convert", source, tmp_path / "out.json").exit_code == 0
    assert invoke("validate", tmp_path / "out.json").exit_code == 0


@pytest.mark.parametrize(
    ("field", "value", "pointer"),
    [
        ("comment", "a\ud800b", "/turns/0/comment"),
        ("time_ms", 10**400, "/turns/0/time_ms"),
        ("time_ms", 2**53, "/turns/0/time_ms"),
    ],
    ids=["lone-surrogate", "time-10e400", "time-2e53"],
)
@pytest.mark.parametrize("target", ["out.pdn", "out.jsonl"])
def test_a_lone_surrogate_or_a_huge_time_is_a_diagnostic(
    tmp_path: Path, field: str, value: object, pointer: str, target: str
) -> None:
    record = played("thai")
    record["turns"][0][field] = value
    source = write(tmp_path / "odd.jsonl", record)
    result = invoke("validate", source)
    assert result.exit_code == 1 and f"[schema] {pointer}" in result.output
    result = invoke("convert", source, tmp_path / target)
    assert result.exit_code == 2 and "no game could be written" in result.output
    assert not (tmp_path / target).exists()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphabeta:depth=-3", "depth must be a whole number >= 0"),
        ("alphabeta:depth=abc", "depth must be a whole number, not 'abc'"),
        ("alphabeta:depth=2.5", "depth must be a whole number"),
        ("search:time=nan", "time must be a number >= 0"),
        ("search:time=-1", "time must be a number >= 0"),
        ("alphabeta:depth=0,time=0", "give a depth or a time limit"),
    ],
)
def test_bad_bot_options_are_one_line(tmp_path: Path, spec: str, message: str) -> None:
    args = ["tournament", "run", "-g", "thai", "--bots", f"random,{spec}", "--out", tmp_path]
    result = invoke(*args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "tournament.json").exists()


@pytest.mark.parametrize("command", ["perft", "moves"])
@pytest.mark.parametrize("depth", ["-3", "0", "abc"])
def test_a_bad_depth_is_a_usage_error(command: str, depth: str) -> None:
    assert invoke(command, "-g", "thai", "--depth", depth).exit_code == 2


# VmHWM, the peak of this process's memory: ru_maxrss would also count the memory of the
# forked pytest process before the exec.
PEAK = textwrap.dedent(
    """
    import re, sys
    from pathlib import Path
    from referee.validator.check import validate_file
    reports = list(validate_file(Path(sys.argv[1])))
    status = Path("/proc/self/status").read_text()
    print(len(reports), re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1))
    """
)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
@pytest.mark.parametrize("where", ["tag", "comment"])
def test_validating_a_pdn_file_with_a_10_mb_tag_or_comment_peaks_under_150_mb(
    tmp_path: Path, where: str
) -> None:
    big = "x" * 10_000_000
    tag, comment = (big, "short") if where == "tag" else ("short", big)
    path = tmp_path / "big.pdn"
    path.write_text(f'[Event "{tag}"]\n[Result "*"]\n\n{{{comment}}} 1. 25-21 *\n')
    out = subprocess.run(
        [sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True, check=True
    )
    games, peak_kb = map(int, out.stdout.split())
    assert games == 1
    assert peak_kb < 150 * 1024, f"peak {peak_kb} KB"
