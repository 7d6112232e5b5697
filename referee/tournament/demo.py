"""The demo: a small round robin of the built-in bots of every game, on embedded defaults."""

from __future__ import annotations

from pathlib import Path

from referee.games import GAME_NAMES
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.openings import shipped_suites, suite_lines

DEMO_BOTS: dict[str, tuple[list[str], int]] = {  # in the order the README introduces the games
    "thax": (["random", "greedy", "thax-perfect"], 100),
    "takhteh": (["random", "greedy", "tdnet:time=0.2"], 6),
    "trax": (["random", "greedy", "threat:time=0.05"], 6),
    "thai": (["random", "greedy", "search:time=0.05"], 10),
}
"""Per game: the bots and the games per pairing."""

DEMO_OPENINGS = {"trax": "trax-3ply", "thai": "thai-3ply"}
"""The shipped suites the deterministic games play from, in a seeded random order."""


def demo_configs(seed: str = "demo") -> dict[str, TournamentConfig]:
    return {
        game: TournamentConfig(
            game=game,
            bots=[BotEntry(name=spec.partition(":")[0], spec=spec) for spec in specs],
            games_per_pair=games,
            seed=seed,
            event="referee demo",
            openings=(
                suite_lines(shipped_suites()[DEMO_OPENINGS[game]])
                if game in DEMO_OPENINGS
                else None
            ),
            openings_order="random",
        )
        for game, (specs, games) in DEMO_BOTS.items()
        if game in GAME_NAMES
    }


def next_steps(out: Path) -> tuple[str, list[str]]:
    """What to try next on the demo's folder `out` (the README's commands), as it ends: what
    they do, and the commands, each short enough for a line of a terminal."""
    return (
        "next: every Trax game in a viewer, one game's table with every column, how a "
        "tournament stands, and the bots for a round robin of your own:",
        [
            f"referee report {out / 'trax'} --anchor greedy -o trax.html",
            f"referee ratings {out / 'thai'} --anchor greedy --wide",
            f"referee tournament status {out / 'takhteh'}",
            "referee bots",
        ],
    )
