"""Tournament commands: run, resume, status."""

from __future__ import annotations

from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.output import fail, plural, user_errors

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig
    from referee.tournament.runner import RunSummary

DaskOption = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS",
        help="run on a Dask cluster: tcp://host:port, or 'local' to start one here",
    ),
]
ConcurrencyOption = Annotated[int, typer.Option(min=1, help="games played at once")]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="no progress bar and no standings at the end")
]

tournament_app = typer.Typer(
    help="Round-robin bot tournaments.", no_args_is_help=True, rich_markup_mode=None
)


def _games_per_pair(value: int | None) -> int | None:
    if value is not None and (value < 2 or value % 2):
        raise typer.BadParameter("must be an even number >= 2 (games are played in pairs)")
    return value


def _units(config: TournamentConfig) -> tuple[str, str]:
    """What the schedule counts: games, or matches when a game is played to a match length."""
    from referee.tournament.worker import tournament_ruleset

    game, ruleset = tournament_ruleset(config)
    return ("match", "matches") if game.match_length(ruleset) > 1 else ("game", "games")


def _announce(config: TournamentConfig) -> None:
    """One line before work that depends on the machine or takes long once."""
    from referee.tournament.timing import timed_bots, unsolved_thax_table

    timed = timed_bots(config)
    if timed:
        typer.echo(
            f"note: {', '.join(timed)} {'stops' if len(timed) == 1 else 'stop'} at a time limit "
            "a move, so {} depend on this machine's speed and load: the same --seed can give "
            "other games, on resume too".format("its moves" if len(timed) == 1 else "their moves"),
            err=True,
        )
    table = unsolved_thax_table(config)
    if table is not None:
        typer.echo(f"solving THAX once, about 30 s; cached in {table}", err=True)


def _run(
    directory: Path,
    config: TournamentConfig | None,
    concurrency: int,
    dask: str | None,
    quiet: bool,
    standings: bool = True,
) -> None:
    from referee.cli.progress import TournamentProgress, stopped_message
    from referee.tournament.executors import dask_executors
    from referee.tournament.runner import run_tournament
    from referee.tournament.store import TournamentStore

    with user_errors():
        known = config if config is not None else TournamentStore(directory).load().config
        unit = _units(known)
        _announce(known)
    try:
        with user_errors(), ExitStack() as stack:
            factory = None
            if dask is not None:
                factory = stack.enter_context(dask_executors(dask, concurrency))
            progress = stack.enter_context(TournamentProgress(not quiet, unit[1]))
            summary = run_tournament(directory, config, concurrency, factory, progress)
    except KeyboardInterrupt:
        store = TournamentStore(directory)
        stored = len(store.records()) if store.exists() else 0
        typer.echo(stopped_message(directory, stored), err=True)
        raise SystemExit(130) from None
    _report(summary, unit)
    if standings and not quiet:
        from referee.cli.ratings import print_standings

        print_standings(directory)


def _report(summary: RunSummary, unit: tuple[str, str]) -> None:
    played = plural(summary.played, *unit)
    if unit[0] == "match":
        played += f" ({plural(summary.stored, 'game')})"
    typer.echo(
        f"{played} played, {summary.already + summary.played} of "
        f"{summary.total} finished in {summary.directory / 'games.jsonl'}"
    )
    for message in summary.invalid:
        typer.echo(f"referee: warning: a stored game did not validate: {message}", err=True)
    for message in summary.failed:
        typer.echo(f"referee: error: a batch of games could not be played: {message}", err=True)
    if summary.failed:
        raise typer.Exit(1)


@tournament_app.command("run")
def run(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="folder for tournament.json and games.jsonl")
    ],
    config_file: Annotated[
        Path | None, typer.Option("--config", help="a TOML file with the options below")
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="the game: thax, takhteh, trax or thai")
    ] = None,
    variant: Annotated[str | None, typer.Option(help="the variant  [default: standard]")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KEY=VALUE",
            help="a ruleset option, e.g. match=5 for Takhteh matches; repeat for more",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(metavar="SPECS", help="built-in bots, e.g. 'random,greedy,alphabeta:depth=4'"),
    ] = None,
    external: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=COMMAND",
            help="an external bot (NAME@trax=... for the Trax protocol); repeat for more",
        ),
    ] = None,
    games_per_pair: Annotated[
        int | None,
        typer.Option(
            callback=_games_per_pair,
            help="games per pairing, an even number (seats swapped)  [default: 2]",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(help="the seed of every game's dice and random bots (any text)  [default: 1]"),
    ] = None,
    turn_cap: Annotated[
        int | None,
        typer.Option(min=1, help="adjudicate a draw after N turns  [default: the game's own]"),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(help="seconds per move for external bots  [default: 60]"),
    ] = None,
    concurrency: ConcurrencyOption = 1,
    dask: DaskOption = None,
    quiet: QuietOption = False,
) -> None:
    """Play a round robin; every finished game is validated and stored at once."""
    from referee.tournament.config import (
        bot_entries,
        build_config,
        load_config_file,
        ruleset_options,
        split_bot_specs,
    )

    with user_errors():
        fields: dict[str, object] = {
            "game": game,
            "variant": variant,
            "games_per_pair": games_per_pair,
            "seed": seed,
            "turn_cap": turn_cap,
            "time_limit": time_limit,
        }
        if option:
            fields["options"] = ruleset_options(option)
        if bots is not None or external:
            fields["bots"] = bot_entries(split_bot_specs(bots or ""), external or [])
        if config_file is not None:
            config = load_config_file(config_file, fields)
        else:
            if game is None or "bots" not in fields:
                fail("give --game and --bots (or --config FILE)")
            config = build_config(**{k: v for k, v in fields.items() if v is not None})
    _run(out, config, concurrency, dask, quiet)


@tournament_app.command("resume")
def resume(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="the tournament's folder")],
    concurrency: ConcurrencyOption = 1,
    dask: DaskOption = None,
    quiet: QuietOption = False,
) -> None:
    """Play the games a stopped tournament is missing."""
    _run(directory, None, concurrency, dask, quiet)


@tournament_app.command("status")
def status(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="the tournament's folder")],
) -> None:
    """How far a tournament is, and how its games ended."""
    from referee.tournament.schedule import schedule
    from referee.tournament.store import TournamentStore

    with user_errors():
        store = TournamentStore(directory)
        info = store.load()
        records = store.records()
        unit = _units(info.config)
    total = len(schedule(info.config))
    config = info.config
    typer.echo(f"tournament {info.id}: {config.game}/{config.variant}, seed {config.seed}")
    typer.echo(f"bots: {', '.join(bot.name for bot in config.bots)}")
    typer.echo(
        f"{unit[1]}: {len(store.by_job())} of {total} scheduled finished, "
        f"{plural(len(records), 'game')} stored"
    )
    reasons = Counter(record.result.reason.value for record in records if record.result is not None)
    for reason, count in sorted(reasons.items()):
        typer.echo(f"  {reason}: {count}")


def demo(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="folder for the demo's tournaments")
    ] = Path("referee-demo"),
    concurrency: ConcurrencyOption = 2,
    quiet: QuietOption = False,
) -> None:
    """Run a round robin of the built-in bots of each game, validate every record, and print
    the rating tables (greedy = 0)."""
    from referee.cli.ratings import IntervalMethod, ratings
    from referee.cli.tables import print_summary
    from referee.tournament.demo import demo_configs
    from referee.validator.run import validate_paths
    from referee.validator.summary import Summary

    configs = demo_configs()
    for game, config in configs.items():
        typer.echo(f"{game}: {', '.join(bot.name for bot in config.bots)}")
        _run(out / game, config, concurrency, None, quiet, standings=False)
    folders = [str(out / game) for game in configs]
    summary = Summary()
    with user_errors():
        for report in validate_paths(folders, jobs=1):
            summary.add(report)
            if not report.valid:
                for diagnostic in report.diagnostics:
                    typer.echo(diagnostic.one_line(), err=True)
    print_summary(summary)
    # Every game's demo has greedy in the middle of its ladder: rated from it, the strict
    # ladders of Trax and Thai checkers keep finite bounds on both sides (docs/ratings.md).
    ratings([out / game for game in configs], anchor="greedy", interval=IntervalMethod.bootstrap)
    if summary.invalid:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
    app.command()(demo)
