"""PDN (Portable Draughts Notation) for GameType 31, read into and written from dataclasses.

Reading is lenient, in the spirit of PDN 3.0's reading grammar: tag pairs, move numbers
(`12.`, `12...`, glued to the move or not), moves, comments in braces (over several lines)
or after `;`, variations in parentheses (skipped), NAGs (`$3`) and move strength marks
(`!`, `?`, `*`) ignored, `%` escape lines skipped; several games a file, each ended by its result
(`2-0`, `0-2`, `1-1`, `*`, and also `1-0`, `0-1`, `1/2-1/2`, `0-0`) or by the tags of the
next game. Nothing is judged here: a move is kept as the text it was written as, with its
line and column, for the engine to read. Only text that cannot be split into tags, moves
and comments (an unclosed comment, a broken tag pair) is a syntax error of its game.

Writing is strict and canonical: the seven-tag roster in order (`?` for unknown values),
GameType, FEN when given, then the other tags; move numbers for every Black move and for a
White move that opens the game or follows a comment; lines of at most 80 characters except
where one comment is longer; the result at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from referee.escaping import without_controls
from referee.games.base import ParseError

GAME_TYPE = "31,B,8,8,N2,0"
"""Thai draughts: Black starts, 8x8, numeric squares from the top left, bottom left dark."""

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
UNKNOWN = {"Date": "????.??.??", "Result": "*"}
RESULTS = frozenset({"2-0", "0-2", "1-1", "*", "1-0", "0-1", "1/2-1/2", "0-0"})
LINE_WIDTH = 80


@dataclass
class PdnMove:
    """One move as written, where it was written, and the comments that follow it."""

    text: str
    line: int = 0
    column: int = 0
    number: int | None = None
    """The move number written right before the move, if any."""
    comments: list[str] = field(default_factory=list)


class PdnSyntaxError(ParseError):
    """Text that is not PDN: the unreadable text itself is the message."""

    code = "pdn.syntax"


@dataclass
class PdnGame:
    """One game of a PDN file."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[PdnMove] = field(default_factory=list)
    result: str | None = None
    """The result written at the end of the moves (None if the text just stops)."""
    comments: list[str] = field(default_factory=list)
    """Comments before the first move."""
    line: int = 1
    """The line where the game starts."""
    tag_lines: dict[str, int] = field(default_factory=dict)
    error: PdnSyntaxError | None = None


_TAG_HEAD = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"')
_TAG_RUN = re.compile(r'[^"\\]*')
"""Text of a tag value up to a quote or a backslash: one character class, which the regex
engine scans without keeping a state per character (an alternation in a repeated group kept
one, some 200 bytes per character of a long tag)."""
_TAG_END = re.compile(r"\s*\]")
_NUMBER = re.compile(r"(\d+)(\.+)")
_STRENGTH = re.compile(r"(?:[!?*]+|\([!?]+\))$")
_STRENGTH_AFTER = re.compile(r"\([!?]+\)")
_WORD_END = re.compile(r"[\s{}()\[\];]")


@dataclass
class _Token:
    kind: str
    """tag, comment, open, close, number, nag, result, move or error."""
    text: str
    line: int
    column: int
    value: str = ""


def _tokens(lines: Iterable[str]) -> Iterator[_Token]:
    comment: list[str] | None = None
    comment_at = (0, 0)
    line_number = 0
    for line_number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if line_number == 1:
            line = line.removeprefix("\ufeff")
        i = 0
        if comment is None and line.startswith("%"):
            continue
        while i < len(line):
            if comment is not None:
                end = line.find("}", i)
                if end < 0:
                    comment.append(line[i:])
                    break
                comment.append(line[i:end])
                yield _Token("comment", "\n".join(comment).strip(), *comment_at)
                comment = None
                i = end + 1
                continue
            char = line[i]
            if char.isspace():
                i += 1
            elif char == "{":
                comment, comment_at = [], (line_number, i + 1)
                i += 1
            elif char == ";":
                yield _Token("comment", line[i + 1 :].strip(), line_number, i + 1)
                break
            elif char == "[":
                tag = _tag_pair(line, i)
                if tag is None:
                    yield _Token(
                        "error",
                        'a tag pair is written [Name "value"]',
                        line_number,
                        i + 1,
                    )
                    break
                name, value, end = tag
                yield _Token("tag", name, line_number, i + 1, value)
                i = end
            elif char in "()":
                yield _Token("open" if char == "(" else "close", char, line_number, i + 1)
                i += 1
            elif char in "]}":
                yield _Token("error", f"a stray {char!r}", line_number, i + 1)
                i += 1
            else:
                end_match = _WORD_END.search(line, i)
                end = end_match.start() if end_match else len(line)
                strength = _STRENGTH_AFTER.match(line, end)
                yield from _word(line[i:end], line_number, i + 1)
                i = strength.end() if strength else end
    if comment is not None:
        yield _Token("error", "a comment '{' is never closed", *comment_at)


def _tag_pair(line: str, start: int) -> tuple[str, str, int] | None:
    """The tag pair `[Name "value"]` at `start`: its name, its value (backslash escapes
    resolved) and where it ends; None when there is none. Time and memory linear in its size."""
    head = _TAG_HEAD.match(line, start)
    if head is None:
        return None
    parts: list[str] = []
    at = head.end()
    while True:
        run = _TAG_RUN.match(line, at)
        assert run is not None  # the class matches the empty string
        parts.append(run.group())
        at = run.end()
        if at >= len(line) or (line[at] == "\\" and at + 1 >= len(line)):
            return None
        if line[at] == '"':
            break
        parts.append(line[at + 1])
        at += 2
    end = _TAG_END.match(line, at + 1)
    return None if end is None else (head.group(1), "".join(parts), end.end())


def _word(word: str, line: int, column: int) -> Iterator[_Token]:
    if word in RESULTS:
        yield _Token("result", word, line, column)
        return
    number = _NUMBER.match(word)
    if number is not None:
        yield _Token("number", number.group(1), line, column)
        rest = word[number.end() :]
        if rest:
            yield from _word(rest, line, column + number.end())
        return
    if word.startswith("$"):
        yield _Token("nag", word, line, column)
        return
    if word.strip(".") == "":
        return
    stripped = _STRENGTH.sub("", word)
    if stripped:
        yield _Token("move", stripped, line, column)


def read_games(lines: Iterable[str]) -> Iterator[PdnGame]:
    """Every game of a PDN text given line by line, one at a time."""
    game: PdnGame | None = None
    in_moves = False
    depth = 0
    number: int | None = None
    for token in _tokens(lines):
        kind = token.kind
        if kind == "tag" and game is not None and in_moves:
            yield game
            game = None
        if game is None:
            game, in_moves, depth, number = PdnGame(line=token.line), False, 0, None
        if kind == "error":
            if game.error is None:
                game.error = PdnSyntaxError(token.text, line=token.line, column=token.column)
        elif kind == "tag":
            if token.text not in game.tags:
                game.tags[token.text] = token.value
                game.tag_lines[token.text] = token.line
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif kind == "comment":
            if game.moves:
                game.moves[-1].comments.append(token.text)
            else:
                game.comments.append(token.text)
        elif kind == "number":
            number, in_moves = int(token.text), True
        elif kind == "move":
            game.moves.append(PdnMove(token.text, token.line, token.column, number))
            number, in_moves = None, True
        elif kind == "result":
            game.result = token.text
            yield game
            game = None
    if game is not None and (game.tags or game.moves or game.error or game.comments):
        yield game


def read_game(text: str) -> PdnGame | None:
    """The first game of a PDN text, or None when there is none."""
    return next(read_games(text.splitlines()), None)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_game(game: PdnGame) -> str:
    """The game in canonical PDN, ending with a blank line.

    Raises ValueError for what PDN cannot hold: a comment with `}` in it, a tag name that is
    not a word, or a result that is not a PDN result. A control character in a tag value
    (a line break, an escape) is written as a space: a tag pair is one line of text.
    """
    result = game.result or game.tags.get("Result") or "*"
    if result not in RESULTS:
        raise ValueError(f"{result!r} is not a PDN result")
    tags = {name: game.tags.get(name) or UNKNOWN.get(name, "?") for name in ROSTER}
    tags["Result"] = result
    tags["GameType"] = game.tags.get("GameType", GAME_TYPE)
    if game.tags.get("FEN"):
        tags["FEN"] = game.tags["FEN"]
    tags.update((name, value) for name, value in game.tags.items() if name not in tags)
    out = []
    for name, value in tags.items():
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise ValueError(f"{name!r} is not a PDN tag name")
        out.append(f"[{name} {_quote(without_controls(value))}]")
    out.append("")
    out.extend(_wrap(_movetext(game, result)))
    out.append("")
    return "\n".join(out) + "\n"


def _comment(text: str) -> str:
    if "}" in text:
        raise ValueError(f"a PDN comment cannot hold '}}': {text!r}")
    return "{" + text + "}"


def _movetext(game: PdnGame, result: str) -> list[str]:
    """Move numbers before Black's moves only (`1. 22-18 {...} 11-15 {...} 2. ...`), and
    `1...` only when White makes the first move: a comment does not bring back White's
    number (`1...`). PDN allows both; other readers (pydraughts) take only this form."""
    fen = game.tags.get("FEN", "").strip().upper()
    white_first = fen.startswith("W")
    items = [_comment(text) for text in game.comments]
    number = 1
    for index, move in enumerate(game.moves):
        white = (index % 2 == 1) != white_first
        if not white:
            items.append(f"{number}.")
        elif index == 0:
            items.append(f"{number}...")
        items.append(move.text)
        if white:
            number += 1
        items.extend(_comment(text) for text in move.comments)
    items.append(result)
    return items


def _wrap(items: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for item in items:
        if current and len(current) + 1 + len(item) > LINE_WIDTH:
            lines.append(current)
            current = item
        else:
            current = f"{current} {item}" if current else item
    if current:
        lines.append(current)
    return lines
