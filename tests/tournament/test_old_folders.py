"""Folders written before the configuration was typed (issue 32) resume and extend as they
did: tournament.json keeps its bytes, its digest and its id, and the games are the same.

The fixture tests/fixtures/tournament-bc9d3ef was written by the code of commit bc9d3ef with
`RUN` (`made`), then `referee tournament extend made --rounds 3` and `resume` (`extended`).
Its time controls and adjudication rules are spelled as a user might (spaces, `.25`, a minus
sign on a resign score): tournament.json keeps them as written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.ratings.sprt import SprtSpec
from referee.tournament.adjudication import DrawRule, ResignRule
from referee.tournament.clock import TimeControl
from referee.tournament.runner import run_tournament
from referee.tournament.store import TournamentStore, config_digest, tournament_id

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tournament-bc9d3ef"

RUN = [
    *("tournament", "run", "-g", "trax", "--bots", "random,greedy", "--rounds", "2"),
    *("--seed", "old-folder", "--tc", " 30 + 0.5 "),
    *("--adjudicate", "resign=-900:4", "--adjudicate", "draw=0.05:20:40"),
    *("--sprt", "elo0=0, elo1=10", "--openings", "trax-3ply", "--openings-order", "random"),
    *("--bot-option", "greedy.tc=20+.25", "-q"),
]


def games(folder: Path) -> list[dict]:
    """The games of a folder without what depends on the machine: the times and clocks."""
    stored = []
    for line in (folder / "games.jsonl").read_text().splitlines():
        data = json.loads(line)
        for turn in data.get("turns", []):
            turn.pop("time_ms", None)
            turn.pop("clock_ms", None)
        stored.append(data)
    return sorted(stored, key=lambda game: game["event"]["game_number"])


def without_times(text: str) -> str:
    """tournament.json without the times it was made and extended at."""
    return re.sub(r'"\d{4}-\d\d-\d\dT[\d:]+Z', '"TIME', text)


def test_an_old_folder_reads_into_typed_values_and_keeps_its_digest_and_id() -> None:
    info = TournamentStore(FIXTURE / "made").load()
    config = info.config
    assert config.tc == TimeControl(30_000, 500)
    assert config.time_control(1) == TimeControl(20_000, 250)
    assert config.adjudicate.resign == ResignRule(900.0, 4)
    assert config.adjudicate.draw == DrawRule(0.05, 20, 40)
    assert config.sprt == SprtSpec(elo0=0.0, elo1=10.0)
    assert config.rules()[1].id == "trax/standard@1"
    written = json.loads((FIXTURE / "made" / "tournament.json").read_text())
    assert info.model_dump(mode="json")["config"] == written["config"]
    assert config_digest(written["config"]).config == written["digest"]["config"]
    assert tournament_id(config) == written["id"]


def test_an_old_folder_resumes_and_extends_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "made"
    shutil.copytree(FIXTURE / "made", folder)
    before = (folder / "tournament.json").read_bytes()
    summary = run_tournament(folder)
    assert (summary.total, summary.already, summary.played) == (4, 4, 0)
    assert (folder / "tournament.json").read_bytes() == before
    extended = CliRunner().invoke(app, ["tournament", "extend", str(folder), "--rounds", "3"])
    assert extended.exit_code == 0, extended.output
    expected = (FIXTURE / "extended" / "tournament.json").read_text()
    assert without_times((folder / "tournament.json").read_text()) == without_times(expected)
    assert run_tournament(folder).played == 2
    assert games(folder) == games(FIXTURE / "extended")


def test_the_same_configuration_writes_the_same_tournament_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(app, [*RUN, "--out", "made"])
    assert done.exit_code == 0, done.output
    expected = (FIXTURE / "made" / "tournament.json").read_text()
    assert without_times((tmp_path / "made" / "tournament.json").read_text()) == without_times(
        expected
    )
    assert games(tmp_path / "made") == games(FIXTURE / "made")
