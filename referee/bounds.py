"""The ranges of the numbers a user gives: checked where the command line reads them (typer's
`min=` and `max=`, shown in each option's help as `[1<=x<=64]`) and where a tournament's TOML
file is read (the configuration's fields, tournament/config.py), one range for both. A value
outside is a usage error before any work starts: no number can ask for more than a machine can
do, overflow a C integer or a clock, or be NaN or infinite (a float with both bounds refuses
them)."""

from __future__ import annotations

MAX_JOBS = 64
"""Processes or games at once (--jobs, --concurrency): more than a machine has cores. The
processes started are fewer when the work is: no more than the files to check, or the pairs
of games left to play."""

MAX_GAMES = 10**9
"""A count or a number of games (--first, --sample, --game-number, --openings-start)."""

MAX_TURNS = 10**6
"""A turn number or a cap in turns (--turn, --turn-cap, stats --plies): no game is longer."""

MAX_PERFT_DEPTH = 30
"""perft's depth: beyond it the count would not end in a lifetime in any game."""

MAX_OPENING_PLIES = 6
"""openings --plies: the suites grow some fivefold a ply; Trax's 6 plies take some 10 s of CPU,
its 7 more than 30 s: an accepted value ends in seconds, not minutes."""

MAX_SAMPLES = 100_000
"""Bootstrap samples of the ratings' intervals."""

MAX_SEED = 2**63 - 1
"""A numeric seed: what a 64-bit signed integer holds."""

MAX_RATING = 1e6
"""The average rating or an anchor's, either sign."""

MAX_ROUNDS = 1_000_000
"""Rounds or games per pairing, as a tournament's configuration allows."""

MIN_SECONDS = 0.001
MAX_SECONDS = 86_400.0
"""A time limit, or the time a program has to start: a millisecond to a day."""

MIN_LOG_MB = 0.001
MAX_LOG_MB = 1024.0
"""The cap of a bot's stderr log, in MB."""

MAX_MEMORY_MB = 1 << 24
"""A program's address-space cap in MB (16 TB): what a 64-bit limit in bytes holds with room."""

MAX_LINE_BYTES = 1 << 30
"""The longest line accepted from a program, bytes."""
