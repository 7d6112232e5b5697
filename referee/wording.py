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
    from difflib import get_close_matches  # only for a name mistyped: not at start-up

    close = get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
