"""The plain Trax game list: the official notation's tokens, separated by white space.

The form as players write it (and as game collections keep it):

    1. @0+ 2. B1+ 3. A0/ A3/ @3/
    @3+ B1+ Resign

- Tokens are separated by any white space, over any number of lines.
- A move number is a token of digits, with or without a final dot (`1.`, `12`); it may also
  be glued to its move (`1.@0+`). Move numbers are kept but not checked: collections number
  turns, pairs of turns or not at all.
- `Resign` (any case) may end a game: the player to move resigns.
- **[referee]** A blank line ends a game, so a file holds several games, one block each.
- **[referee]** `#` starts a comment that runs to the end of its line. A comment line of the
  form `# Key: value` is a header of the game whose block it is in; known keys are
  `Variant` (standard, 8x8, looptrax), `White`, `Black`, `Event`, `Site`, `Date`, `Round`,
  `Result` and `Result-Detail` (see `docs/trax.md`); other keys are kept as they are.
  A block with no move, no `Resign` and no `Variant` header is a comment block, not a game
  (so a game of no moves is written with its `Variant` header).

This module reads and writes the text only; what a token means is for the engine.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from referee.escaping import without_controls
from referee.games.base import ParseError
from referee.games.trax.notation import TOKEN

HEADER = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)")
NUMBER = re.compile(r"(\d+)\.?")
NUMBERED_MOVE = re.compile(r"(\d+)\.(\S+)")
PARTIAL = re.compile(r"(\d+\.?)?(@|[A-Z]+)?\d*")
"""A move number, a move or both, cut short before the end of the move."""
RESIGN = "resign"
KNOWN_HEADERS = ("Variant", "White", "Black", "Event", "Site", "Date", "Round")
RESULT_HEADERS = ("Result", "Result-Detail")
LINE_WIDTH = 78


class GameListError(ParseError):
    """Text that is not a game list."""

    code = "trax-list.syntax"


@dataclass(frozen=True, slots=True)
class Token:
    """A piece of text and where it starts (1-based line and column)."""

    text: str
    line: int
    column: int


@dataclass(slots=True)
class ListedGame:
    """One game of a list: its move tokens in order, and what else its block holds."""

    line: int
    """The line where the game's block starts."""
    moves: list[Token] = field(default_factory=list)
    numbers: list[Token] = field(default_factory=list)
    """The move numbers as written (not checked)."""
    resign: Token | None = None
    headers: dict[str, str] = field(default_factory=dict)
    """`# Key: value` lines, keys as first written; a later duplicate key wins."""
    comments: list[str] = field(default_factory=list)
    """Other comment text, one item a line."""

    def header(self, key: str) -> str | None:
        """A header's value, the key matched in any case."""
        wanted = key.lower()
        for name, value in self.headers.items():
            if name.lower() == wanted:
                return value
        return None


def _split_comment(text: str) -> tuple[str, str | None]:
    body, hash_mark, comment = text.partition("#")
    return body, (comment.strip() if hash_mark else None)


def _words(body: str, line: int) -> Iterator[Token]:
    for match in re.finditer(r"\S+", body):
        yield Token(match.group(), line, match.start() + 1)


def parse_block(lines: Sequence[tuple[int, str]]) -> ListedGame:
    """A game from the (line number, text) lines of one block; GameListError if it is not one."""
    game = ListedGame(line=lines[0][0])
    for number, text in lines:
        body, comment = _split_comment(text)
        if comment is not None:
            header = HEADER.fullmatch(comment) if not body.strip() else None
            if header is not None:
                game.headers[header.group(1)] = header.group(2).strip()
            elif comment:
                game.comments.append(comment)
        for word in _words(body, number):
            if game.resign is not None:
                raise GameListError(
                    f"{word.text!r} after Resign: Resign ends a game (a blank line starts "
                    "the next one)",
                    line=word.line,
                    column=word.column,
                    code="trax-list.after-resign",
                )
            numbered = NUMBERED_MOVE.fullmatch(word.text)
            if NUMBER.fullmatch(word.text):
                game.numbers.append(word)
            elif word.text.lower() == RESIGN:
                game.resign = word
            elif numbered is not None:
                game.numbers.append(Token(numbered.group(1) + ".", word.line, word.column))
                offset = len(numbered.group(1)) + 1
                game.moves.append(Token(numbered.group(2), word.line, word.column + offset))
            else:
                game.moves.append(word)
    return game


def blocks(lines: Iterable[str]) -> Iterator[list[tuple[int, str]]]:
    """The blank-line separated blocks of a text, each as (line number, text) pairs."""
    block: list[tuple[int, str]] = []
    for number, text in enumerate(lines, 1):
        if text.strip():
            block.append((number, text.rstrip("\r\n")))
        elif block:
            yield block
            block = []
    if block:
        yield block


def read_games(lines: Iterable[str]) -> Iterator[ListedGame | GameListError]:
    """Every game of a list, or the error that spoils it; a bad game never hides the next."""
    for block in blocks(lines):
        try:
            game = parse_block(block)
        except GameListError as error:
            yield error
            continue
        if game.moves or game.resign is not None or game.header("Variant") is not None:
            yield game


def is_move_token(text: str) -> bool:
    return TOKEN.fullmatch(text.upper()) is not None


def _could_be_cut(word: str) -> bool:
    """Whether a word may be the start of a token cut off by the end of a file's head."""
    return PARTIAL.fullmatch(word.upper()) is not None or RESIGN.startswith(word.lower())


def looks_like_game_list(text: str) -> bool:
    """Whether text (the head of a file) is a Trax game list.

    It must open, after comments and a move number, with a first move (`@0+` or `@0/`), and
    every token after it must be a move number, a move or Resign (the last word of the text
    may be a token cut off by the end of the head).
    """
    words = [word for line in text.splitlines() for word in _split_comment(line)[0].split()]
    if words and not text[-1:].isspace() and _could_be_cut(words[-1]):
        words.pop()
    moves = 0
    for word in words:
        numbered = NUMBERED_MOVE.fullmatch(word)
        if numbered is not None:
            word = numbered.group(2)
        elif NUMBER.fullmatch(word):
            continue
        if word.lower() == RESIGN:
            return moves > 0
        if not is_move_token(word) or (moves == 0 and word not in ("@0+", "@0/")):
            return False
        moves += 1
    return moves > 0


def format_headers(headers: Mapping[str, str]) -> list[str]:
    lines = []
    for key, text in headers.items():
        # A header is one line of text: a control character in it (a line break, an
        # escape) is written as a space.
        value = without_controls(text)
        if HEADER.fullmatch(f"{key}: {value}") is None or "#" in key:
            raise ValueError(f"header {key!r}: {value!r} cannot be written as '# Key: value'")
        lines.append(f"# {key}: {value}".rstrip())
    return lines


def format_game(
    moves: Sequence[str], resign: bool = False, headers: Mapping[str, str] | None = None
) -> str:
    """A game in canonical form: headers, then unnumbered tokens wrapped at 78 columns."""
    lines = format_headers(headers or {})
    words = [*moves, "Resign"] if resign else list(moves)
    for word in words:
        if any(c.isspace() or c == "#" for c in word) or not word:
            raise ValueError(f"{word!r} cannot be a token of a game list")
    lines += textwrap.wrap(
        " ".join(words), LINE_WIDTH, break_long_words=False, break_on_hyphens=False
    )
    return "\n".join(lines) + "\n"
