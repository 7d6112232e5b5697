"""Text from records (bot and player names, moves, paths) made safe for what shows it: a
terminal, a spreadsheet, a Markdown renderer, a one-line header (imports nothing of referee,
so that any part may use it).

A record may name its players anything: `=cmd|' /C calc'!A0`, `\\x1b]0;PWNED\\x07`,
`<script>`. What reads an output of referee must see that text, never act on it.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV
injection)."""


def printable(text: str) -> str:
    """`text` with each character a terminal acts on (escape, bell, line breaks, bidi
    overrides: whatever `str.isprintable` refuses) written as `repr` writes it (`\\x1b`,
    `\\n`), as the validator's messages show a move, and bytes that are no UTF-8 as
    `escaped` shows them (`\\xff`); printable text as it is."""
    if text.isprintable():
        return text
    text = escaped(text)
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def quoted(text: str) -> str:
    """`text` in quotes, as a message names what a user typed: `printable`, so that a byte that
    is no UTF-8 shows as `\\xff` like everywhere else (`repr` would show the lone surrogate
    Python keeps it as, `\\udcff`) and a control character as `repr` writes it."""
    return f"'{printable(text)}'"


def escaped(text: str) -> str:
    """`text` as any output can hold it: the bytes of a command line or a file name that are no
    UTF-8 (Python keeps them as lone surrogates, which no UTF-8 file or JSON can hold) shown as
    `\\xff`, and any other lone surrogate as `\\udc00`."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogateescape" if _only_escapes(text) else "backslashreplace")
        return raw.decode("utf-8", "backslashreplace")
    return text


def _only_escapes(text: str) -> bool:
    """Whether every lone surrogate of `text` stands for a byte (U+DC80..U+DCFF)."""
    return all(not 0xD800 <= ord(char) <= 0xDFFF or 0xDC80 <= ord(char) <= 0xDCFF for char in text)


def printable_json(text: str) -> str:
    """JSON text with each character `str.isprintable` refuses written as a JSON escape
    (`\\u009b`): `json.dumps` without `ensure_ascii` writes C1 codes and bidi overrides raw.
    Outside its strings JSON text holds no such character but the line breaks of its
    indentation, kept; so the value read back is the same."""
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() or char == "\n" else json.dumps(char)[1:-1] for char in text
    )


def one_line(text: str) -> str:
    """`text` as the value of a one-line header (a PGN or PDN tag, a `.mat` line): each
    character `str.isprintable` refuses is a space, and runs of spaces one space."""
    return " ".join("".join(char if char.isprintable() else " " for char in text).split())


def without_controls(text: str) -> str:
    """`text` with each control character (Unicode category Cc: line breaks, tab, escape,
    bell, DEL, the C1 codes) a space: a value a one-line header of a game's text format
    holds, everything else in it kept as it is, so that it reads back the same."""
    return "".join(" " if unicodedata.category(char) == "Cc" else char for char in text)


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows and never runs: text made `printable`, with a `'`
    before it when it starts like a formula (`=`, `+`, `-`, `@`, as OWASP recommends);
    numbers as they are, so that a negative rating stays a number."""
    if not isinstance(value, str):
        return value
    text = printable(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def markdown_cell(text: str) -> str:
    """Text for a Markdown table cell: `printable`, HTML shown as text (`&lt;script&gt;`),
    and a backslash or a `|` escaped so that neither ends the cell."""
    # Imported here: `html` compiles a regular expression on import, a cost of every
    # command's start, and only the Markdown tables use it.
    import html

    shown = html.escape(printable(text), quote=False)
    return shown.replace("\\", "\\\\").replace("|", "\\|")


def markdown_row(cells: Iterable[str]) -> str:
    """A Markdown table's row, each cell a `markdown_cell`."""
    return "| " + " | ".join(markdown_cell(cell) for cell in cells) + " |"
