"""A stop keeps every finished game (issue 30): games are handed back as they end, so Ctrl-C,
SIGTERM or SIGKILL in the middle of a batch loses at most the games still being played. The
bot is a real program (tests/players/bots/holding.py) that holds its next game after a
number of finished ones, so that the test knows exactly how many games have ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.players.helpers import BOTS, alive

HOLDING = BOTS / "holding.py"
ENDED = 3
"""Games each program finishes before it holds the next one."""


def tournament(
    out: Path, folder: Path, concurrency: int, resume: bool = False, game: str = "thax"
) -> list[str]:
    base = [sys.executable, "-m", "referee", "tournament"]
    if resume:
        return [*base, "resume", str(out), "-q", "--concurrency", str(concurrency)]
    bot = f"holding={sys.executable} {HOLDING} {ENDED} {folder}"
    return [
        *base,
        *("run", "--game", game, "--bots", "random", "--external", bot),
        *(["--option", "match=3"] if game == "takhteh" else []),
        *("--games-per-pair", "20", "--out", str(out), "-q"),
        *("--concurrency", str(concurrency)),
    ]


def holding(folder: Path, programs: int, process: subprocess.Popen[bytes]) -> list[Path]:
    """Wait until `programs` programs hold a game, each after ENDED finished ones."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        found = sorted(folder.glob("holding-*"))
        if len(found) == programs:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{programs} programs never held a game: {process.communicate()}")


def game_numbers(out: Path) -> list[int]:
    lines = (out / "games.jsonl").read_text().splitlines() if (out / "games.jsonl").exists() else []
    return [json.loads(line)["event"]["game_number"] for line in lines]


@pytest.mark.parametrize(
    ("concurrency", "number"),
    [
        pytest.param(1, signal.SIGINT, id="ctrl-c, 1 worker"),
        pytest.param(2, signal.SIGTERM, id="sigterm, 2 workers"),
    ],
)
def test_a_stop_stores_exactly_the_games_that_had_ended(
    tmp_path: Path, concurrency: int, number: signal.Signals
) -> None:
    """Each program has finished ENDED games of a batch of 8 when the signal comes (the old
    runner stored none of them: the batches in flight were dropped)."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "hold").touch()
    out = tmp_path / "t"
    process = subprocess.Popen(
        tournament(out, folder, concurrency),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    holders = holding(folder, concurrency, process)
    assert all(path.read_text() == str(ENDED) for path in holders)
    if number == signal.SIGINT:
        os.killpg(process.pid, number)  # what the terminal does on Ctrl-C: the whole group
    else:
        process.send_signal(number)  # `kill PID`: the runner alone
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + number, stderr
    stored = game_numbers(out)
    assert len(stored) == len(set(stored)) == ENDED * concurrency
    assert f"stopped: {ENDED * concurrency} games stored" in stderr.decode()
    ended = (folder / "ended.txt").read_text().splitlines()
    assert len(ended) == ENDED * concurrency  # no game ended after the signal
    for path in holders:  # the programs holding a game were stopped
        assert not alive(int(path.name.removeprefix("holding-")))
    assert not list((out / ".spool").iterdir())


@pytest.mark.parametrize("game", ["thax", "takhteh"])
def test_sigkill_loses_no_finished_game_and_resume_does_not_play_it_again(
    tmp_path: Path, game: str
) -> None:
    """The runner is killed outright with ENDED games finished in a batch that never came
    back: resume stores them from the spool and plays only the others (the program notes
    every game it plays: none twice). In Takhteh matches to 3 points the games stored are
    the first games of a match, which resume goes on with."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "hold").touch()
    out = tmp_path / "t"
    process = subprocess.Popen(
        tournament(out, folder, 1, game=game), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    (holder,) = holding(folder, 1, process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert game_numbers(out) == []  # nothing came back: the batch was in flight
    program = int(holder.name.removeprefix("holding-"))
    deadline = time.monotonic() + 30
    while alive(program) and time.monotonic() < deadline:  # the worker leaves with its bots
        time.sleep(0.05)
    (folder / "hold").unlink()
    subprocess.run(tournament(out, folder, 1, resume=True), check=True, capture_output=True)
    stored = game_numbers(out)
    ended = (folder / "ended.txt").read_text().splitlines()
    assert len(ended) == len(set(ended)) == len(stored)
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    # The game the kill broke off is no result (its bot killed as the worker left).
    assert {g["result"]["reason"] for g in lines} <= {"rules", "adjudicated"}
    keys = [(g["event"]["game_number"], g.get("match", {}).get("game", 0)) for g in lines]
    assert len(keys) == len(set(keys))
    assert sorted(set(stored)) == list(range(20))
    if game == "thax":
        assert stored[:ENDED] == [0, 1, 2]  # stored first, from the killed run's batch
    else:
        # Each match was played to its end, its games numbered 1, 2, ... without a gap.
        for number in range(20):
            games = sorted(match for job, match in keys if job == number)
            assert games == list(range(1, len(games) + 1))
            final = max(
                (g for g in lines if g["event"]["game_number"] == number),
                key=lambda g: g["match"]["game"],
            )
            score = list(final["match"]["score"])
            score[final["result"]["winner"]] += final["result"]["points"]
            assert max(score) >= 3


def test_a_batch_spools_each_game_as_it_ends_and_a_line_cut_short_is_no_game(
    tmp_path: Path,
) -> None:
    """The spool holds every game the batch sends back, each game of a match included, with
    its key and whether it was found valid; a last line cut short by a kill is left out."""
    from referee.tournament.config import BotEntry, build_config
    from referee.tournament.schedule import schedule
    from referee.tournament.worker import BatchOptions, play_batch, read_spool

    config = build_config(
        game="takhteh",
        options={"match": 3},
        bots=[BotEntry(name="random", spec="random"), BotEntry(name="greedy", spec="greedy")],
        games_per_pair=2,
    )
    jobs = schedule(config)
    spool = tmp_path / "batch.jsonl"
    spool.touch()  # as the runner makes it
    played = play_batch(config, jobs, BatchOptions("t", verify="sample"), spool=str(spool))
    assert len(played.games) > 2  # matches of several games
    pairs = {job.number: job.pair for job in jobs}
    expected = [
        (("t", pairs[game.number], game.number, game.match_game), game) for game in played.games
    ]
    assert read_spool(spool) == expected
    assert {game.valid for _, game in expected} == {True, None}  # game 0 replayed (sample)
    with spool.open("ab") as stream:
        stream.write(played.games[0].line[:100])  # a kill in the middle of a write
    assert read_spool(spool) == expected
    # No file, no spool: a worker that does not see the runner's folder, or a batch whose
    # spool the runner has stored and deleted, writes none.
    play_batch(
        config, jobs[:1], BatchOptions("t", verify="none"), spool=str(tmp_path / "none.jsonl")
    )
    assert not (tmp_path / "none.jsonl").exists()
    assert read_spool(tmp_path / "none.jsonl") == []
