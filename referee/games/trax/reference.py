"""Trax's reference for `referee analyse`: the `search` bot's score (bots.py) at a depth, as a
chance of winning.

A position is worth the search's score for its player to move, `depth` moves deep, turned
into a chance of winning by the logistic
curve of `games.reference.search_chance`: a win or a loss the search found is 1 or 0, and
`scale` points of the evaluation (loop and line prospects; a loop threat of the side to move
counts 18) are about 73%. A move is worth the position it leads to. Every node of the search
sees the wins at once of its side to move: at depth 0 a move is seen to win, or to leave the
opponent a win at once; at depth 1 also to make a double threat, or to leave the opponent
one, at some 20 times the cost (a few tenths of a second a turn).
"""

from __future__ import annotations

from functools import partial

from referee.games.reference import SearchReference, Setting, read_spec, written
from referee.games.trax.bots import TraxSearchBot
from referee.games.trax.rules import TraxMove, TraxState

REFERENCES = {"search": {"depth": Setting(1, 0, 3), "scale": Setting(20.0, 0.001, 1e6)}}
"""The search, from 0 to 3 moves deep (each move deeper costs some 20 times as much)."""


def reference(spec: str | None) -> SearchReference[TraxState, TraxMove]:
    name, options = read_spec(spec, REFERENCES, "Trax")
    score = partial(TraxSearchBot(time=0).score, depth=int(options["depth"]))
    return SearchReference(written(name, options), score, float(options["scale"]))
