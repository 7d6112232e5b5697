"""Thai checkers' reference for `referee analyse`: the `search` bot's score (search.py) at a
depth, as a chance of winning.

A position is worth the search's score for its player to move, `depth` plies deep (captures
searched out past it, repetitions scored as draws at once), turned into a chance of winning
by the logistic curve of `games.reference.search_chance`: a win or a loss the search found
is 1 or 0, a draw's score (0) one half, and `scale` hundredths of a man of advantage about
73%. A move is worth the position it leads to, so the move before it is looked at `depth` + 1
plies deep.
"""

from __future__ import annotations

from functools import partial

from referee.games.reference import SearchReference, Setting, read_spec, written
from referee.games.thai.rules import ThaiMove, ThaiState
from referee.games.thai.search import SearchBot

REFERENCES = {"search": {"depth": Setting(4, 0, 12), "scale": Setting(150.0, 0.001, 1e6)}}
"""The search, from 0 to 12 plies deep."""


def reference(spec: str | None) -> SearchReference[ThaiState, ThaiMove]:
    name, options = read_spec(spec, REFERENCES, "Thai checkers")
    score = partial(SearchBot(time=0).score, depth=int(options["depth"]))
    return SearchReference(written(name, options), score, float(options["scale"]))
