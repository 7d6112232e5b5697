"""Opening suites: start positions and book moves that every pairing plays in both seats.

A deterministic program plays the same game again and again from the same start; an opening
suite gives each game pair another start, as cutechess-cli's and fastchess's opening files do.

A suite is a text file, one opening per line, in the game's own notation:

    # comments and blank lines are skipped
    @0+ B1/ A2\\                        Trax: moves from the empty board
    1. 25-21 9-13 2. 21-17              Thai checkers: PDN moves (numbers optional)
    W:W9,10:B23,24 | 9-13              Thai checkers: a FEN, then moves
    4HPwATDgc/ABMA                      Takhteh: a Position ID (the opening roll still decides)

`|` separates a start position from the moves (`FEN |` is a start position alone); a line
without `|` is moves only, except in the dice games, where it is a start position: their
turns need rolls, which the duplicate dice of each pair provide after the book. Every line is
played through the engine when the suite is read; a bad line is refused with its file, line
and the rule it breaks before any game starts.

The suites shipped with referee (`referee/data/openings/NAME.txt`) are named by NAME
(`--openings trax-3ply`): they are read as package data, so the name works from any folder
after any install.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from referee.errors import RefereeError
from referee.escaping import quoted
from referee.games.base import Game, GameError, IllegalMove, Ruleset, State

SEPARATOR = "|"
T = TypeVar("T")


class OpeningError(RefereeError, ValueError):
    """A line of an opening file that is not an opening; `where` names file and line, `code`
    the rule the line breaks."""

    def __init__(self, message: str, *, rule: str, path: str) -> None:
        super().__init__(f"{message} [{rule}]", code=rule, path=path)

    @property
    def rule(self) -> str:
        return self.code


@dataclass(frozen=True)
class Opening:
    """A start position (None for the game's own start) and the book moves played from it,
    both in canonical notation."""

    start: str | None
    moves: tuple[str, ...]

    def text(self) -> str:
        """The line of a suite file for this opening."""
        moves = " ".join(self.moves)
        if self.start is None:
            return moves
        return f"{self.start} {SEPARATOR} {moves}".rstrip()


def _tokens(text: str) -> list[str]:
    """Moves of a line: PDN move numbers (`1.`, `12...`) are not moves."""
    return [token for token in text.split() if not token.rstrip(".").isdigit()]


def read_opening(game: Game[Any, Any], ruleset: Ruleset, text: str, where: str) -> Opening:
    """One line's opening, checked by playing it; OpeningError says what is wrong."""
    start_text, bar, moves_text = text.partition(SEPARATOR)
    if not bar:
        start_text, moves_text = (text, "") if game.has_dice else ("", text)
    start_text = start_text.strip()
    try:
        state = game.initial_state(ruleset, start_text or None)
        start = game.format_position(state) if start_text else None
    except GameError as error:
        shown = quoted(start_text)
        raise OpeningError(f"start position {shown}: {error}", path=where, rule="start") from None
    tokens = _tokens(moves_text)
    if tokens and game.has_dice:
        raise OpeningError(
            f"{game.title} openings are start positions: the dice of a pair follow the book",
            path=where,
            rule="book-dice",
        )
    if not tokens and start is None:
        raise OpeningError("neither a start position nor moves", path=where, rule="empty")
    played: list[str] = []
    for number, token in enumerate(tokens, start=1):
        move_text = f"move {number} {quoted(token)}"
        if state.is_terminal():
            raise OpeningError(f"{move_text} after the game ended", path=where, rule="after-end")
        try:
            move = game.parse_move(state, token)
            played.append(game.format_move(state, move))
            state = state.play(move)
        except IllegalMove as error:
            raise OpeningError(f"{move_text}: {error}", path=where, rule=error.rule) from None
        except GameError as error:
            raise OpeningError(f"{move_text}: {error}", path=where, rule="notation") from None
    if state.is_terminal():
        raise OpeningError("the game is over at the end of the book", path=where, rule="after-end")
    return Opening(start, tuple(played))


def shipped_suites() -> dict[str, Traversable]:
    """The suites shipped with referee, by name (the file's name without `.txt`), sorted."""
    folder = resources.files("referee.data").joinpath("openings")
    found = (entry for entry in folder.iterdir() if entry.name.endswith(".txt"))
    return {entry.name.removesuffix(".txt"): entry for entry in sorted(found, key=str)}


def find_suite(given: str, folder: Path) -> Path | Traversable:
    """The suite a user named: a file (relative to `folder`) if there is one, else the
    shipped suite of that name; OpeningError when it is neither."""
    path = folder / given
    if path.exists():
        return path
    shipped = shipped_suites()
    if given in shipped:
        return shipped[given]
    raise OpeningError(
        "no such file, nor a suite shipped with referee (" + ", ".join(shipped) + ")",
        path=given,
        rule="file",
    )


def _suite_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a suite that hold an opening, numbered from 1, without their comments."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        opening = line.split("#", 1)[0].strip()
        if opening:
            found.append((number, opening))
    return found


def suite_lines(suite: Traversable) -> list[str]:
    """The openings of a suite file as its lines say them (comments left out), unchecked."""
    return [line for _, line in _suite_lines(suite.read_text("utf-8"))]


def read_openings(
    path: Path | Traversable, game: Game[Any, Any], ruleset: Ruleset
) -> list[Opening]:
    """Every opening of a suite file, in file order; OpeningError at the first bad line."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise OpeningError(f"cannot read: {error.strerror}", path=str(path), rule="file") from None
    except UnicodeDecodeError as error:
        raise OpeningError(
            f"not UTF-8 at byte {error.start}", path=str(path), rule="encoding"
        ) from None
    openings = [
        read_opening(game, ruleset, line, f"{path}:{number}") for number, line in _suite_lines(text)
    ]
    if not openings:
        raise OpeningError("no opening in the file", path=str(path), rule="empty")
    return openings


def opening_order(
    openings: Sequence[T], order: str, seed: str, start: int = 1
) -> Callable[[int], T]:
    """Which opening game pair k (0-based, in schedule order) plays: the file's order, or a
    seeded shuffle of it, beginning at the `start`-th opening (1-based), cycling. The shuffle
    depends only on the suite's length and the seed, so the openings may be given as lines."""
    if not 1 <= start <= len(openings):
        raise ValueError(f"--openings-start must be 1 to {len(openings)}, not {start}")
    if order not in ("sequential", "random"):
        raise ValueError(f"--openings-order must be sequential or random, not {order!r}")
    sequence = list(openings)
    if order == "random":
        random.Random(f"{seed}/openings").shuffle(sequence)
    offset = start - 1

    def pick(pair: int) -> T:
        return sequence[(offset + pair) % len(sequence)]

    return pick


def _wins_at_once(state: State[Any]) -> bool:
    """Whether the side to move has a move that wins the game: a book that ends there decides
    the game instead of opening it."""
    mover = state.to_move
    for move in state.legal_moves():
        outcome = state.play(move).outcome()
        if outcome is not None and outcome.winner == mover:
            return True
    return False


def all_openings(
    game: Game[Any, Any], ruleset: Ruleset, plies: int, symmetric: bool = False
) -> list[Opening]:
    """Every distinct position after `plies` moves from the start, each once (the first
    move sequence that reaches it, in the engine's move order), none where the game is over
    or the side to move can win at once;
    with `symmetric`, one of each set of positions that are rotations or reflections of each
    other (Trax; Thai checkers' board has no such symmetry: a mirror takes the dark squares
    to the light ones)."""
    if game.has_dice:
        raise RefereeError(
            f"{game.title}: the dice decide its openings; give start positions", code="openings"
        )
    if plies < 1:
        raise RefereeError("--plies must be at least 1", code="openings")
    frontier: list[tuple[State[Any], tuple[str, ...]]] = [(game.initial_state(ruleset), ())]
    for _ in range(plies):
        seen: set[Hashable] = set()
        following: list[tuple[State[Any], tuple[str, ...]]] = []
        for state, moves in frontier:
            for move in state.legal_moves():
                after = state.play(move)
                if after.is_terminal() or _wins_at_once(after):
                    continue
                position = game.position_key(after, symmetric)
                if position in seen:
                    continue
                seen.add(position)
                following.append((after, (*moves, game.format_move(state, move))))
        frontier = following
    return [Opening(None, moves) for _, moves in frontier]
