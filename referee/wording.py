"""How referee words its messages: counts, and the name meant by a mistyped one (imports nothing
of referee, so that any part may use it)."""

from __future__ import annotations

from collections.abc import Iterable


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 game`, `2 games`; `nouns` for a plural that is not the noun and an s
    (`plural(n, 'match', 'matches')`)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`; did you mean 'greedy'?` for the known name closest to a mistyped one, or nothing when
    none is close."""
    from difflib import get_close_matches

    close = get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


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
