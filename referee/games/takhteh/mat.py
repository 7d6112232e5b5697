"""The Jellyfish `.mat` match text that backgammon software reads and writes.

A match is a header (`; [Key "value"]` comment lines and ` 7 point match`), then games:

     Game 1
     alice : 0                      bob : 0
      1)                             41: 13/9 24/23
      2) 31: 6/5 8/5                 41: 6/5 9/5
     ...
                                      Wins 2 points

The left column is the first player named (seat 0), the right column the second (seat 1);
each turn is a roll `41:` and its checker moves (bar is 25, off is 0, hits marked `*`), or a
cube action (`Doubles => 2`, `Takes`, `Drops`). Opening rolls are not written: the player who
moves first in a game has the first entry. This module reads such text into plain dataclasses
that keep the line and column of each entry, and writes them back in the layout GNU
Backgammon uses. It never raises on bad input: a game that cannot be read carries a
`MatError`, and the next game is read as usual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.games.base import ParseError

RIGHT_COLUMN = 33
"""0-based column where GNU Backgammon starts the right-hand player's entries."""
_LEFT_WIDTH = 27

_TAG = re.compile(r';\s*\[\s*([^\]"]*?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_PLAYERS = re.compile(r"\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NAMES = re.compile(r"\s*(\S.*?)\s{2,}(\S.*?)\s*$")
_MOVE_LINE = re.compile(r"\s*(\d+)\)")
_ENTRY = re.compile(
    r"(?P<roll>[1-6][1-6]):|(?P<cube>Doubles\s*=>\s*\d+|Takes|Drops|Beavers?(?:\s*=>\s*\d+)?"
    r"|Raccoons?(?:\s*=>\s*\d+)?)|(?P<wins>Wins\s+(?P<points>\d+)\s+points?)",
    re.IGNORECASE,
)
_WINS_LINE = re.compile(r"\s*Wins\s+(\d+)\s+points?\b", re.IGNORECASE)


class MatError(ParseError):
    """Text that is not a `.mat` match."""

    code = "mat.syntax"


@dataclass(frozen=True, slots=True)
class MatEntry:
    """One player's entry on a move line: a roll and its checker moves, or a cube action."""

    seat: int
    line: int
    column: int
    """1-based column where the entry starts."""
    roll: tuple[int, int] | None = None
    """The dice as written (`41:` is (4, 1)); None for a cube action."""
    move: str = ""
    """The checker moves as written; empty when the roll had no legal move."""
    cube: str | None = None
    """The cube action as written (`Doubles => 2`, `Takes`, `Drops`), or None."""


@dataclass(slots=True)
class MatGame:
    number: int
    line: int
    players: tuple[str, str] = ("", "")
    score: tuple[int, int] = (0, 0)
    """The match score before the game."""
    entries: list[MatEntry] = field(default_factory=list)
    winner: int | None = None
    points: int = 0
    error: MatError | None = None


@dataclass(slots=True)
class MatMatch:
    length: int | None = None
    """Points to win the match; None when the file has no `N point match` line."""
    tags: dict[str, str] = field(default_factory=dict)
    games: list[MatGame] = field(default_factory=list)
    error: MatError | None = None
    """Set when the file holds no game at all."""


def _seat_of(column: int, paren: int) -> int:
    """Left or right column, from where an entry starts (0-based) past the `N)`."""
    return 1 if column - paren > 10 else 0


def _read_entries(game: MatGame, text: str, number: int, paren: int) -> None:
    """The entries of one move line (after its `N)`)."""
    matches = list(_ENTRY.finditer(text, paren + 1))
    if not matches:
        if text[paren + 1 :].strip():
            game.error = MatError(
                f"not a roll, a cube action or a result: {text.strip()!r}",
                line=number,
                column=paren + 2,
            )
        return
    gap = text[paren + 1 : matches[0].start()]
    if gap.strip():
        game.error = MatError(
            f"{gap.strip()!r} is not a roll (written as 41:) or a cube action",
            line=number,
            column=paren + 2,
        )
        return
    for index, match in enumerate(matches):
        start = match.start()
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        # Two entries on a line are the left player's and the right player's; a lone entry
        # is placed by its column.
        seat = _seat_of(start, paren) if len(matches) == 1 else 0 if index == 0 else 1
        if match.group("wins"):
            game.winner = seat
            game.points = int(match.group("points"))
            continue
        if match.group("cube"):
            rest = text[match.end() : end].strip()
            if rest:
                game.error = MatError(f"unexpected {rest!r}", line=number, column=match.end() + 1)
                return
            game.entries.append(
                MatEntry(seat, number, start + 1, cube=" ".join(match.group("cube").split()))
            )
            continue
        roll = match.group("roll")
        game.entries.append(
            MatEntry(
                seat,
                number,
                start + 1,
                roll=(int(roll[0]), int(roll[1])),
                move=" ".join(text[match.end() : end].split()),
            )
        )


def parse_mat(text: str) -> MatMatch:
    """Read a `.mat` text; problems are recorded on the game (or the match), never raised."""
    match = MatMatch()
    game: MatGame | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            tag = _TAG.match(line.strip())
            if tag:
                match.tags[tag.group(1)] = tag.group(2)
            continue
        found = _LENGTH.match(line)
        if found and game is None:
            match.length = int(found.group(1))
            continue
        found = _GAME.match(line)
        if found:
            game = MatGame(int(found.group(1)), number)
            match.games.append(game)
            continue
        if game is None:
            if match.error is None:
                match.error = MatError(f"text before the first game: {line.strip()!r}", line=number)
            continue
        if game.error is not None:
            continue
        if not game.entries and game.players == ("", ""):
            found = _PLAYERS.match(line)
            if found:
                game.players = (found.group(1), found.group(3))
                game.score = (int(found.group(2)), int(found.group(4)))
                continue
            names = _NAMES.match(line)
            if names and not _MOVE_LINE.match(line):
                # A single game (no match) names the players without scores.
                game.players = (names.group(1), names.group(2))
                continue
        found = _MOVE_LINE.match(line)
        if found:
            _read_entries(game, line, number, found.end() - 1)
            continue
        found = _WINS_LINE.match(line)
        if found:
            indent = len(line) - len(line.lstrip())
            game.winner = 1 if indent > 20 else 0
            game.points = int(found.group(1))
            continue
        game.error = MatError(f"not part of a game: {line.strip()!r}", line=number)
    if not match.games and match.error is None:
        match.error = MatError("no game found (a game starts with a line 'Game 1')", line=1)
    return match


def _points(points: int) -> str:
    return f"Wins {points} point" + ("s" if points != 1 else "")


def write_mat(match: MatMatch) -> str:
    """The match in GNU Backgammon's `.mat` layout (trailing spaces left out)."""
    lines: list[str] = []
    for key, value in match.tags.items():
        lines.append(f'; [{key} "{value}"]')
    if match.tags:
        lines.append("")
    if match.length is not None:
        lines += [f" {match.length} point match", ""]
    for game in match.games:
        lines.append(f" Game {game.number}")
        left = f"{game.players[0]} : {game.score[0]}"
        lines.append(f" {left:<31}{game.players[1]} : {game.score[1]}")
        rows: list[list[str]] = []
        for entry in game.entries:
            # Cube actions are indented one space, as GNU Backgammon writes them.
            text = f" {entry.cube}" if entry.cube is not None else _entry_text(entry)
            if entry.seat == 0 or not rows or rows[-1][1]:
                rows.append(["", ""])
            rows[-1][entry.seat] = text
        for index, (left_text, right_text) in enumerate(rows, 1):
            lines.append(f"{index:3d}) {left_text:<{_LEFT_WIDTH}} {right_text}".rstrip())
        if game.winner is not None:
            indent = RIGHT_COLUMN + 1 if game.winner == 1 else 6
            lines.append(" " * indent + _points(game.points))
        lines.append("")
    return "\n".join(lines) + "\n"


def _entry_text(entry: MatEntry) -> str:
    assert entry.roll is not None
    return f"{entry.roll[0]}{entry.roll[1]}: {entry.move}".rstrip()
