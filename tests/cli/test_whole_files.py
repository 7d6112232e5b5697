"""Whole files or none: every file a command writes is complete, or the old one is left as it
was and no temporary file stays; a machine that can store no more exits 4, naming the file.

The commands run as subprocesses under a file size limit (RLIMIT_FSIZE, with SIGXFSZ ignored
so that a write past it fails with EFBIG instead of killing the process): no root needed.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.files import CannotWrite, folder_atomically, write_atomically

runner = CliRunner()

LIMIT = 200
"""The file size limit, in bytes: larger than the old files, smaller than every output."""

OLD = b"old content\n"
MACHINE = 4
"""The documented exit code of a failure of the machine (README, docs/design.md)."""


def _limited(size: int = LIMIT) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def referee(
    args: list[str], limit: bool = True, stdin: bytes = b"", size: int = LIMIT
) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; sys.argv = ['referee', *sys.argv[1:]]; "
        "from referee.cli.app import main; main()"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin.decode(),
        preexec_fn=functools.partial(_limited, size) if limit else None,
        capture_output=True,
        text=True,
        timeout=300,
    )


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under `folder` (a folder as None), by relative path; but a
    tournament's lock file, which holds the number of the last process that held it."""
    return {
        str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes()
        for path in folder.rglob("*")
        if path.name != ".lock"
    }


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("t") / "t"
    run = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert runner.invoke(app, [*run, "--games-per-pair", "2", "-q"]).exit_code == 0
    assert (out / "games.jsonl").stat().st_size > LIMIT
    return out


def assert_machine_failure(
    result: subprocess.CompletedProcess[str],
    named: Path,
    folder: Path,
    before: dict[str, bytes | None],
) -> None:
    assert result.returncode == MACHINE, result.stderr
    assert result.stderr == f"referee: error: cannot write {named}: File too large\n"
    assert tree(folder) == before  # the old file byte for byte, nothing half-written, no .tmp


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("report.html", ["report", "{t}", "--force", "-o", "{out}"]),
        ("games.pgn", ["export", "{t}", "-o", "{out}"]),
        ("games.csv", ["export", "{t}", "--format", "csv", "-o", "{out}"]),
        ("ratings.md", ["ratings", "{t}", "-o", "{out}"]),
        ("ratings.csv", ["ratings", "{t}", "--format", "csv", "-o", "{out}"]),
        ("ratings.json", ["ratings", "{t}", "--format", "json", "-o", "{out}"]),
        ("ratings.png", ["ratings", "{t}", "--plot", "{out}"]),
        ("stats.md", ["stats", "{t}", "-o", "{out}"]),
        ("stats.csv", ["stats", "{t}", "--format", "csv", "-o", "{out}"]),
        ("stats.json", ["stats", "{t}", "--format", "json", "-o", "{out}"]),
        ("turns.png", ["stats", "{t}", "--plot", "{out}"]),
        ("kept.jsonl", ["select", "{t}", "-o", "{out}"]),
        ("kept.json", ["convert", "{t}/games.jsonl", "{out}"]),
        ("suite.txt", ["openings", "--game", "thai", "--plies", "2", "-o", "{out}"]),
        ("position.svg", ["show", "{t}/games.jsonl", "--svg", "{out}"]),
        ("record.schema.json", ["schema", "--out", "{folder}"]),
    ],
)
def test_a_file_past_the_limit_leaves_the_old_one_and_exits_4(
    tournament: Path, tmp_path: Path, name: str, args: list[str]
) -> None:
    out = tmp_path / name
    out.write_bytes(OLD)
    before = tree(tmp_path)
    given = [arg.format(t=tournament, out=out, folder=tmp_path) for arg in args]
    assert_machine_failure(referee(given), out, tmp_path, before)
    # Without the limit the same command writes the file in full.
    assert referee(given, limit=False).returncode == 0
    assert out.read_bytes() != OLD and out.stat().st_size > LIMIT


@pytest.mark.parametrize("format", ["jsonl", "json"])
def test_a_split_past_the_limit_leaves_no_folder(
    tournament: Path, tmp_path: Path, format: str
) -> None:
    split = tmp_path / "split"
    args = ["select", str(tournament), "--split-by", "player", "--format", format, "-o", str(split)]
    result = referee(args)
    assert result.returncode == MACHINE, result.stderr
    assert result.stderr.startswith(f"referee: error: cannot write {split}")
    assert result.stderr.endswith(": File too large\n") and result.stderr.count("\n") == 1
    assert tree(tmp_path) == {}
    assert referee(args, limit=False).returncode == 0
    assert sorted(path.name for path in split.iterdir()) == [f"greedy.{format}", f"random.{format}"]


def test_a_tournament_that_cannot_write_its_file_leaves_none(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    result = referee([*args, "--games-per-pair", "2", "-q"])
    assert result.returncode == MACHINE, result.stderr
    assert (
        result.stderr == f"referee: error: cannot write {out / 'tournament.json'}: File too large\n"
    )
    assert not (out / "tournament.json").exists()
    assert [path.name for path in out.rglob("*") if ".tmp" in path.name] == []


def test_an_extend_that_cannot_write_leaves_the_tournament_as_it_was(
    tournament: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "t"
    shutil.copytree(tournament, folder)
    before = tree(folder)
    result = referee(["tournament", "extend", str(folder), "--games-per-pair", "4"])
    assert_machine_failure(result, folder / "tournament.json", folder, before)
    assert (
        referee(
            ["tournament", "extend", str(folder), "--games-per-pair", "4"], limit=False
        ).returncode
        == 0
    )
    assert json.loads((folder / "tournament.json").read_text())["config"]["games_per_pair"] == 4


SAMPLES = Path(__file__).parents[1] / "validator" / "samples"


@pytest.mark.parametrize(
    ("source", "name", "size"),
    [
        ("takhteh.jsonl", "games.mat", LIMIT),
        ("thai.pdn", "games.pdn", 50),
        ("trax.trx", "g.trx", 40),
    ],
)
def test_a_conversion_to_each_format_past_the_limit_exits_4(
    tmp_path: Path, source: str, name: str, size: int
) -> None:
    out = tmp_path / name
    out.write_bytes(OLD)
    before = tree(tmp_path)
    args = ["convert", str(SAMPLES / source), str(out)]
    assert_machine_failure(referee(args, size=size), out, tmp_path, before)
    assert referee(args, limit=False).returncode == 0
    assert out.read_bytes() != OLD and out.stat().st_size > size


def test_a_demo_that_cannot_write_names_the_file(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = referee(["demo", "--out", str(out), "-q"])
    assert result.returncode == MACHINE, result.stderr
    named = out / "thax" / "tournament.json"
    assert result.stderr == f"referee: error: cannot write {named}: File too large\n"
    assert not named.exists()
    assert [path.name for path in tmp_path.rglob("*") if ".tmp" in path.name] == []


def whole_lines(path: Path) -> list[dict[str, object]]:
    data = path.read_bytes()
    # No half-written game at the end; none at all when the first batch was already too big
    # (batches are sized by time, so how many games a batch holds depends on the machine).
    assert data == b"" or data.endswith(b"\n"), data[-100:]
    return [json.loads(line) for line in data.splitlines()]


def test_a_tournament_that_cannot_store_a_game_keeps_whole_games(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["--game", "thax", "--bots", "random,greedy", "--games-per-pair", "20", "-q"]
    # Room for tournament.json and a game or two, not for the twenty.
    result = referee(["tournament", "run", *args, "--out", str(out)], size=4000)
    assert result.returncode == MACHINE, result.stderr
    games = out / "games.jsonl"
    assert result.stderr == f"referee: error: cannot write {games}: File too large\n"
    assert len(whole_lines(games)) < 20
    assert [path.name for path in out.rglob("*") if ".tmp" in path.name] == []
    # The games of the batches cut off are played or recovered on resume, none twice.
    assert referee(["tournament", "resume", str(out), "-q"], limit=False).returncode == 0
    stored = whole_lines(games)
    assert len(stored) == 20
    assert len({json.dumps(game["event"], sort_keys=True) for game in stored}) == 20


@pytest.mark.parametrize(("size", "named"), [(LIMIT, "games.jsonl"), (10, "games.rejected")])
def test_a_repair_that_cannot_write_leaves_the_folder_as_it_was(
    tournament: Path, tmp_path: Path, size: int, named: str
) -> None:
    folder = tmp_path / "t"
    shutil.copytree(tournament, folder)
    with (folder / "games.jsonl").open("ab") as games:
        games.write(b'{"damaged": true}\n')
    before = tree(folder)
    result = referee(["tournament", "repair", str(folder)], size=size)
    assert_machine_failure(result, folder / named, folder, before)
    assert referee(["tournament", "repair", str(folder)], limit=False).returncode == 0
    assert (folder / "games.rejected").read_bytes() == b'{"damaged": true}\n'
    assert (folder / "games.jsonl").read_bytes() == (tournament / "games.jsonl").read_bytes()


def test_export_reads_standard_input(tournament: Path) -> None:
    data = (tournament / "games.jsonl").read_bytes()
    result = referee(["export", "-", "--format", "csv"], limit=False, stdin=data)
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0].startswith("game,") and len(rows) == 1 + len(data.splitlines())


def test_a_full_disk_at_the_end_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.txt"
    target.write_bytes(OLD)

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CannotWrite) as raised, write_atomically(target) as file:
        file.write("new content")
    assert raised.value.filename == str(target) and raised.value.errno == errno.ENOSPC
    assert tree(tmp_path) == {"out.txt": OLD}


def test_an_error_of_the_callers_own_passes_through_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(FileNotFoundError), write_atomically(target) as file:
        file.write("half")
        (tmp_path / "missing").read_text()  # reading an input, not writing the output
    with pytest.raises(FileNotFoundError), folder_atomically(tmp_path / "folder") as building:
        (building / "a").write_text("half")
        (tmp_path / "missing").read_text()
    assert tree(tmp_path) == {}


@settings(max_examples=40, deadline=None)
@given(
    old=st.none() | st.binary(max_size=300),
    new=st.binary(max_size=3000),
    fails=st.booleans(),
    permissions=st.sampled_from([0o600, 0o640, 0o644]),
)
def test_a_file_is_the_new_one_whole_or_the_old_one(
    old: bytes | None, new: bytes, fails: bool, permissions: int
) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        target = folder / "out.bin"
        if old is not None:
            target.write_bytes(old)
            target.chmod(permissions)
        try:
            with write_atomically(target, "wb") as file:
                file.write(new)
                if fails:
                    raise KeyboardInterrupt  # any failure midway, even an interruption
        except KeyboardInterrupt:
            pass
        expected = old if fails else new
        assert tree(folder) == ({} if expected is None else {"out.bin": expected})
        if old is not None:  # a file replaced keeps its permissions
            assert target.stat().st_mode & 0o777 == permissions


def test_an_output_path_that_cannot_be_a_file_is_bad_input(
    tournament: Path, tmp_path: Path
) -> None:
    for out, reason in [(tmp_path, "Is a directory"), (tmp_path / "no" / "x.pgn", "No such file")]:
        result = referee(["export", str(tournament), "-o", str(out)], limit=False)
        assert result.returncode == 2
        assert result.stderr.startswith(f"referee: error: cannot write {out}: {reason}")
    assert tree(tmp_path) == {}
