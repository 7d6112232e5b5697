"""One runner per folder, no game stored twice, no hand-edited configuration, and growing a
tournament reproducibly (issue 16 items 2 and 5)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.records.io import parse_record_json
from referee.records.keys import game_key
from referee.tournament.config import BotEntry, ConfigError, build_config
from referee.tournament.runner import run_tournament
from referee.tournament.schedule import schedule
from referee.tournament.store import TournamentStore, _holder
from tests.players.helpers import BOTS
from tests.tournament.helpers import stored_games, stored_records

runner = CliRunner()


def thax(games_per_pair: int, bots: tuple[str, ...] = ("random", "greedy", "thax-perfect")):
    entries = [BotEntry(name=name, spec=name) for name in bots]
    return build_config(game="thax", bots=entries, games_per_pair=games_per_pair, seed="7")


def wait_for(condition, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_two_runners_started_at_once_one_refused_the_other_plays_each_game_once(
    tmp_path: Path,
) -> None:
    """The gated bot holds the winner's first game until the loser has exited, so the two
    runners overlap however slowly each starts."""
    out, gate = tmp_path / "t", tmp_path / "gate"
    command = [sys.executable, "-m", "referee", "tournament", "run", "--game", "thax"]
    command += ["--bots", "random", "--games-per-pair", "4", "--seed", "3", "--out", str(out)]
    command += ["--external", f"gated={sys.executable} {BOTS / 'gated.py'} {gate}", "-q"]
    runners = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    try:
        wait_for(lambda: any(process.poll() is not None for process in runners))
        loser = next(process for process in runners if process.poll() is not None)
        winner = next(process for process in runners if process is not loser)
        _, error = loser.communicate()
        assert loser.returncode == 2, error
        assert f"{out} is being played by pid {winner.pid}" in error
        assert "Traceback" not in error
        assert winner.poll() is None, "the winner waits on the gate"
    finally:
        gate.touch()
        for process in runners:
            process.communicate(timeout=120)
    assert winner.returncode == 0
    numbers = Counter(game["event"]["game_number"] for game in stored_games(out))
    assert numbers == Counter(range(4))


def test_the_lock_names_the_holder_and_goes_with_it(tmp_path: Path) -> None:
    held, other = TournamentStore(tmp_path), TournamentStore(tmp_path)
    with held.lock(), pytest.raises(ConfigError, match=r"is being played by pid \d+"):
        other.lock().__enter__()
    with TournamentStore(tmp_path).lock():
        pass


def test_the_store_refuses_a_game_stored_already(tmp_path: Path) -> None:
    run_tournament(tmp_path, thax(2, ("random", "greedy")))
    games = tmp_path / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    keyed = [(game_key(parse_record_json(line)), line) for line in lines]
    store = TournamentStore(tmp_path)
    with store.open_for_append() as out:
        refused = store.append_lines(out, [keyed[1], keyed[0]])
    assert refused == [0, 1]
    assert games.read_bytes() == b"".join(lines)


def test_status_and_ratings_report_games_stored_twice_and_count_them_once(
    tmp_path: Path,
) -> None:
    run_tournament(tmp_path, thax(4, ("random", "greedy")))
    games = tmp_path / "games.jsonl"
    lines = games.read_text().splitlines(keepends=True)
    games.write_text("".join(lines) + lines[0] + lines[2])
    status = runner.invoke(app, ["tournament", "status", str(tmp_path)])
    assert status.exit_code == 0
    assert "4 of 4 scheduled finished, 4 games stored (2 more stored twice" in status.output
    assert "game 0 (pairing 0)" in status.output and "stored 2 times" in status.output
    ratings = runner.invoke(app, ["ratings", str(tmp_path)])
    assert ratings.exit_code == 0, ratings.output
    assert "2 games repeat" in ratings.output
    from referee.ratings.results import read_games

    assert len(read_games([tmp_path]).frame) == 4


def test_resume_refuses_an_edited_configuration_naming_the_field(tmp_path: Path) -> None:
    run_tournament(tmp_path, thax(2))
    path = tmp_path / "tournament.json"
    original = path.read_text()
    for field, edit in [
        ("games_per_pair", lambda c: c.update(games_per_pair=4)),
        ("seed", lambda c: c.update(seed="8")),
        ("bots[0].name", lambda c: c["bots"].reverse()),
        ("bots[1].spec", lambda c: c["bots"][1].update(spec="random")),
    ]:
        data = json.loads(original)
        edit(data["config"])
        path.write_text(json.dumps(data))
        result = runner.invoke(app, ["tournament", "resume", str(tmp_path), "-q"])
        assert result.exit_code == 2
        assert f"({field}" in result.output and "edited" in result.output
        assert "Traceback" not in result.output
    path.write_text(original)
    assert runner.invoke(app, ["tournament", "resume", str(tmp_path), "-q"]).exit_code == 0


@pytest.mark.parametrize(("option", "value"), [("--games-per-pair", "6"), ("--rounds", "3")])
def test_extend_plays_the_games_of_a_tournament_configured_larger_from_the_start(
    tmp_path: Path, option: str, value: str
) -> None:
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    run_tournament(grown, thax(2))
    before = stored_games(grown)
    result = runner.invoke(app, ["tournament", "extend", str(grown), option, value])
    assert result.exit_code == 0, result.output
    assert "12 games added" in result.output
    run_tournament(grown, None)
    run_tournament(whole, thax(6))
    assert stored_games(grown) == stored_games(whole)
    assert stored_games(grown)[: len(before)] == before
    pairings = Counter(tuple(sorted(g["players"][s]["name"] for s in (0, 1))) for g in before)
    assert set(pairings.values()) == {2}
    grown_pairings = Counter(
        tuple(sorted(g["players"][s]["name"] for s in (0, 1))) for g in stored_games(grown)
    )
    assert set(grown_pairings.values()) == {6}


def test_extend_refuses_fewer_games_and_an_old_layout_that_cannot_grow(tmp_path: Path) -> None:
    run_tournament(tmp_path, thax(4))
    result = runner.invoke(app, ["tournament", "extend", str(tmp_path), "--games-per-pair", "4"])
    assert result.exit_code == 2 and "already plays 4" in result.output
    path = tmp_path / "tournament.json"
    data = json.loads(path.read_text())
    del data["schedule"], data["digest"]  # as written before extend existed
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["tournament", "extend", str(tmp_path), "--rounds", "4"])
    assert result.exit_code == 2 and "pairing by pairing" in result.output


def test_a_folder_from_before_digests_resumes_to_its_old_schedule(tmp_path: Path) -> None:
    """Files without `schedule` keep the layout they were played with (by pairing)."""
    config = thax(4)
    old = schedule(config, "by-pairing")
    assert [job.seats for job in old[:4]] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    new = schedule(config, "by-round")
    assert [job.seats for job in new[:4]] == [(0, 1), (1, 0), (0, 2), (2, 0)]
    assert schedule(thax(2), "by-pairing") == schedule(thax(2), "by-round")
    run_tournament(tmp_path, config)
    path = tmp_path / "tournament.json"
    data = json.loads(path.read_text())
    del data["schedule"], data["digest"]
    path.write_text(json.dumps(data))
    assert list(TournamentStore(tmp_path).load().iter_jobs()) == old


@functools.cache
def _stored_lines() -> tuple[Path, tuple[str, ...]]:
    """A finished tournament's folder and its games' lines, made once for the examples."""
    folder = Path(tempfile.mkdtemp(prefix="referee-tally-"))
    run_tournament(folder, thax(4, ("random", "greedy")))
    return folder, tuple((folder / "games.jsonl").read_text().splitlines(keepends=True))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_tally_counts_the_stored_games_as_the_records_do(tmp_path_factory, data) -> None:
    """`TournamentStore.tally` (status, the SPRT lines of ratings and report) reads the games
    without building records: on games stored in any order, some twice or more, with an
    unreadable line among them and a last line cut short, it counts what the records say."""
    source, lines = _stored_lines()
    chosen = data.draw(st.lists(st.sampled_from(lines), max_size=12), label="lines")
    text = "".join(chosen)
    if chosen and data.draw(st.booleans(), label="unreadable line"):
        text += "{not json\n"
    if chosen and data.draw(st.booleans(), label="cut short"):
        text += chosen[0][: len(chosen[0]) // 2]
    folder = tmp_path_factory.mktemp("tally")
    shutil.copy(source / "tournament.json", folder / "tournament.json")
    (folder / "games.jsonl").write_text(text)
    store = TournamentStore(folder)
    tally = store.tally(results=True)
    # What the records say, worked out here from the full records.
    counts: Counter[tuple] = Counter()
    firsts = []
    for record in stored_records(folder):
        key = game_key(record)
        counts[key] += 1
        if counts[key] == 1:
            firsts.append((key, record))
    assert tally.games == len(firsts)
    assert tally.jobs == len({key[2] for key, _ in firsts})
    assert tally.repeats == {key: count for key, count in counts.items() if count > 1}
    assert tally.reasons == Counter(record.result.reason.value for _, record in firsts)
    by_job: dict[int, list] = {}
    for key, record in firsts:
        by_job.setdefault(key[2], []).append(
            (record.result.winner, record.result.points, record.result.reason.value)
        )
    assert {n: [tuple(e) for e in endings] for n, endings in tally.results.items()} == by_job


def test_a_line_edited_to_a_game_number_far_beyond_the_schedule_is_counted_not_feared(
    tmp_path: Path,
) -> None:
    """Game numbers go up to 2**53 - 1 in a valid record: status and resume hold such a game
    without a bit array reaching its number, and count it as stored but not scheduled."""
    run_tournament(tmp_path, thax(2, ("random", "greedy")))
    games = tmp_path / "games.jsonl"
    data = json.loads(games.read_text().splitlines()[0])
    data["event"]["game_number"] = 2**53 - 1
    data["event"]["pairing"] = (2**53 - 1) // 2
    with games.open("a") as out:
        out.write(json.dumps(data) + "\n")
    status = runner.invoke(app, ["tournament", "status", str(tmp_path)])
    assert status.exit_code == 0, status.output
    assert "2 of 2 scheduled finished, 3 games stored" in status.output
    resumed = runner.invoke(app, ["tournament", "resume", str(tmp_path)])
    assert resumed.exit_code == 0, resumed.output
    assert len(games.read_text().splitlines()) == 3


def test_a_refused_runner_names_the_live_holder_once_it_has_written_its_pid(
    tmp_path: Path,
) -> None:
    """The holder writes its pid just after taking the lock, over the last holder's: the
    refused runner waits for a live pid, and names no dead or half-written one."""
    lock = tmp_path / ".lock"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for written, named in (
        (dead, "another process"),
        ("", "another process"),
        ("99999999999999999999", "another process"),
        (str(os.getpid()), f"pid {os.getpid()}"),
    ):
        lock.write_text(written)
        fd = os.open(lock, os.O_RDONLY)
        try:
            assert _holder(fd) == named
        finally:
            os.close(fd)
    # A pid written while the refused runner waits is found.
    lock.write_text(dead)
    later = threading.Timer(0.3, lambda: lock.write_text(f"{os.getpid()}\n"))
    later.start()
    fd = os.open(lock, os.O_RDONLY)
    try:
        assert _holder(fd) == f"pid {os.getpid()}"
    finally:
        os.close(fd)
        later.join()
