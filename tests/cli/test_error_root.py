"""One error family: every error about what the user gave is a RefereeError with a stable code,
and the root command prints any of them as one line, exit 2, without a command catching it."""

from __future__ import annotations

import importlib
from pathlib import Path

import typer
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import referee.errors
from referee.cli.app import RefereeGroup
from referee.errors import RefereeError
from referee.games.base import IllegalMove, NotationError
from referee.records.io import RecordError
from referee.tournament.openings import OpeningError

CONTROL_FLOW = {"Forfeit", "OutOfTime", "_OutOfTime", "TournamentStopped", "_Unreadable"}
"""Exceptions that stop a search, a move or a run and are handled where they are raised:
no user ever sees them as errors."""

MACHINE = {"CannotWrite"}
"""A file the machine cannot write (a full disk): an OSError, not an error of what the user
gave, that exits 4 (referee.files)."""


def _classes() -> list[type[BaseException]]:
    root = Path(referee.errors.__file__).parent
    for path in sorted(root.rglob("*.py")):
        name = ".".join(("referee", *path.relative_to(root).with_suffix("").parts))
        if not name.endswith(("__init__", "__main__")):
            importlib.import_module(name)
    found: list[type[BaseException]] = []
    stack: list[type[BaseException]] = [Exception]
    while stack:
        kind = stack.pop()
        for sub in kind.__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith("referee."):
                found.append(sub)
    return found


def test_every_error_referee_raises_is_a_referee_error_with_a_code() -> None:
    classes = _classes()
    names = {kind.__name__ for kind in classes}
    assert {"GameError", "RecordError", "ConfigError", "RatingsError", "ArchiveError"} <= names
    for kind in classes:
        if kind.__name__ in CONTROL_FLOW | MACHINE:
            continue
        assert issubclass(kind, RefereeError), kind
        assert isinstance(kind.code, str), kind  # a class without a code of its own: "error"


def test_the_rule_of_an_illegal_move_is_its_code() -> None:
    error = IllegalMove("space 3 is taken", rule="thax.occupied")
    assert (error.code, error.rule, str(error)) == (
        "thax.occupied",
        "thax.occupied",
        "space 3 is taken",
    )
    assert NotationError("no").code == "notation"
    assert RecordError("not JSON", code="json", line=3).line == 3
    opening = OpeningError("neither a start position nor moves", path="book.txt:4", rule="empty")
    assert (opening.code, opening.rule) == ("empty", "empty")
    assert str(opening) == "book.txt:4: neither a start position nor moves [empty]"


texts = st.text(st.characters(categories=("L", "N"), max_codepoint=0x24F), min_size=1)


@given(texts, texts, st.none() | st.text(min_size=1, max_size=8), st.none() | st.integers(1, 10**6))
def test_the_root_command_prints_any_referee_error_as_one_line(
    message: str, code: str, path: str | None, line: int | None
) -> None:
    app = typer.Typer(cls=RefereeGroup)

    @app.command()
    def fails() -> None:
        raise RefereeError(message, code=code, path=path, line=line)

    @app.command()
    def other() -> None:  # two commands, so that the command's name is an argument
        pass

    result = CliRunner().invoke(app, ["fails"])
    where = "" if path is None else path + ("" if line is None else f":{line}") + ": "
    assert result.exit_code == 2
    assert result.stdout == ""
    # A control character of the path (a line break, an escape) is shown as Python writes it.
    shown = "".join(char if char.isprintable() else repr(char)[1:-1] for char in where)
    assert result.stderr == f"referee: error: {shown}{message}\n"
