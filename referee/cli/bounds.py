"""The ranges of the numeric options, checked where the command line reads them (typer's
`min=` and `max=`, shown in each option's help as `[1<=x<=64]`). A value outside is a usage
error before any work starts: no option can ask for more than a machine can do, overflow a
C integer, or be NaN or infinite (a float option with both bounds refuses them)."""

from __future__ import annotations

MAX_JOBS = 64
"""Processes or games at once (--jobs, --concurrency): more than a machine has cores."""

MAX_GAMES = 10**9
"""A count or a number of games (--first, --sample, --game-number, --openings-start)."""

MAX_TURNS = 10**6
"""A turn number or a cap in turns (--turn, --turn-cap, stats --plies): no game is longer."""

MAX_PERFT_DEPTH = 30
"""perft's depth: beyond it the count would not end in a lifetime in any game."""

MAX_OPENING_PLIES = 8
"""openings --plies: the suites grow some fivefold a ply; 8 plies take minutes already."""

MAX_SAMPLES = 100_000
"""Bootstrap samples of the ratings' intervals."""

MAX_SEED = 2**63 - 1
"""A numeric seed: what a 64-bit signed integer holds."""

MAX_RATING = 1e6
"""The average rating or an anchor's, either sign."""

MAX_ROUNDS = 1_000_000
"""Rounds or games per pairing, as a tournament's configuration allows."""

MAX_SECONDS = 86_400.0
"""A time limit: a day a move."""

MAX_LOG_MB = 1024.0
"""The cap of a bot's stderr log, in MB."""
