"""A folder that cannot be read is an error naming it in every command that reads folders,
never a run over no game (issue 31). Tests run as root, whom chmod 000 does not stop: the
folder's listing is refused by a patched os.scandir, as the kernel refuses it to a user."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app

runner = CliRunner()

WALKING = [["validate"], ["select", "-o", "out.jsonl"], ["stats"]]
"""The commands that walk a folder for its record files."""


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "archive" / "locked"
    folder.mkdir(parents=True)
    scandir = os.scandir

    def refuse(path: object = ".") -> object:
        if Path(os.fsdecode(path)) == folder:
            raise PermissionError(13, "Permission denied", os.fsdecode(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    monkeypatch.chdir(tmp_path)
    yield folder


@pytest.mark.parametrize("command", WALKING, ids=lambda command: command[0])
@pytest.mark.parametrize("given", ["locked", "parent"])
def test_an_unreadable_folder_is_an_error_naming_it(
    locked: Path, command: list[str], given: str
) -> None:
    path = locked if given == "locked" else locked.parent
    result = runner.invoke(app, [command[0], str(path), *command[1:]])
    assert result.exit_code == 2, result.output
    assert f"referee: error: {locked}: cannot read the folder: Permission denied" in result.output


@pytest.mark.parametrize(
    "command", [*WALKING, ["ratings"], ["report", "-o", "r.html"]], ids=lambda c: c[0]
)
def test_a_broken_link_given_as_a_folder_is_an_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    link = tmp_path / "games"
    link.symlink_to(tmp_path / "gone")
    result = runner.invoke(app, [command[0], str(link), *command[1:]])
    assert result.exit_code == 2, result.output
    assert f"{link}: " in result.output and "no such file or folder" in result.output


@pytest.mark.parametrize("command", [["ratings"], ["report", "-o", "r.html"]], ids=lambda c: c[0])
def test_a_tournament_folder_that_cannot_be_searched_is_an_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """ratings and report read a tournament folder's games.jsonl by name, without a walk: a
    folder whose entries cannot be reached (no search permission) refuses the stat."""
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "tournament.json").write_text("{}")
    (folder / "games.jsonl").write_text("")
    stat = os.stat

    def refuse(path: object, *args: object, **options: object) -> object:
        if Path(os.fsdecode(path)).parent == folder:
            raise PermissionError(13, "Permission denied", os.fsdecode(path))
        return stat(path, *args, **options)

    monkeypatch.setattr(os, "stat", refuse)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [command[0], str(folder), *command[1:]])
    assert result.exit_code == 2, result.output
    assert f"referee: error: {folder}/" in result.output and "Permission denied" in result.output
