"""Takhteh matches in tournaments: a job is a match to N points, played game by game with the
winner starting the next; a match cut off midway resumes to the same games (issues 5, 7)."""

from __future__ import annotations

import itertools
from pathlib import Path

from referee.records.keys import game_key
from referee.tournament.config import BotEntry, build_config
from referee.tournament.play import match_score
from referee.tournament.runner import run_tournament
from referee.validator.run import validate_paths
from tests.tournament.helpers import stored_games, stored_records


def config():
    bots = [BotEntry(name="random", spec="random"), BotEntry(name="greedy", spec="greedy")]
    return build_config(
        game="takhteh", bots=bots, games_per_pair=2, seed="match", options={"match": 3}
    )


def test_each_job_is_a_whole_match_with_its_score_and_starter(tmp_path: Path) -> None:
    summary = run_tournament(tmp_path, config(), concurrency=1)
    assert summary.played == 2
    jobs: dict[int, list] = {}
    for record in stored_records(tmp_path):
        jobs.setdefault(game_key(record)[2], []).append(record)
    assert sorted(jobs) == [0, 1]
    for games in jobs.values():
        score, _ = match_score([g.result for g in games])
        assert max(score) >= 3
        assert [g.match.game for g in games] == list(range(1, len(games) + 1))
        for earlier, later in itertools.pairwise(games):
            assert later.match.first == earlier.result.winner
            assert later.opening_rolls == []
    assert all(report.valid for report in validate_paths([str(tmp_path)]))


def test_a_match_cut_off_midway_resumes_to_the_same_games(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    run_tournament(whole, config(), concurrency=1)
    run_tournament(cut, config(), concurrency=1)
    lines = (cut / "games.jsonl").read_text().splitlines(keepends=True)
    first_match = [i for i, line in enumerate(lines) if '"game_number":0' in line.replace(" ", "")]
    assert len(first_match) >= 2, "the first match needs two games for this test"
    keep = [line for i, line in enumerate(lines) if i != first_match[-1]]
    (cut / "games.jsonl").write_text("".join(keep))
    summary = run_tournament(cut, None, concurrency=1)
    assert summary.played == 1 and summary.stored == 1
    assert stored_games(cut) == stored_games(whole)
