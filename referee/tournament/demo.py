"""The demo: a small round robin of the built-in bots of every game, on embedded defaults."""

from __future__ import annotations

from pathlib import Path

from referee.games import game_names, get_game
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.openings import shipped_suites, suite_lines


def demo_configs(seed: str = "demo") -> dict[str, TournamentConfig]:
    """The round robin of each game that has one (`Game.demo`), in the registry's
    order (the order the README introduces the games)."""
    configs: dict[str, TournamentConfig] = {}
    for name in game_names():
        demo = get_game(name).demo
        if demo is None:
            continue
        configs[name] = TournamentConfig(
            game=name,
            bots=[BotEntry(name=spec.partition(":")[0], spec=spec) for spec in demo.bots],
            games_per_pair=demo.games_per_pair,
            seed=seed,
            event="referee demo",
            openings=(
                None if demo.openings is None else suite_lines(shipped_suites()[demo.openings])
            ),
            openings_order="random",
        )
    return configs


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
