"""Tournament commands: run, resume, status."""

from __future__ import annotations

from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from referee.cli.output import fail, user_errors
from referee.cli.progress import TournamentProgress
from referee.cli.ratings import IntervalMethod, print_standings, ratings
from referee.cli.tables import print_summary
from referee.records.keys import describe_key
from referee.tournament.config import (
    TournamentConfig,
    bot_entries,
    build_config,
    load_config_file,
    ruleset_options,
    split_bot_specs,
)
from referee.tournament.demo import demo_configs
from referee.tournament.executors import dask_executors
from referee.tournament.runner import RunSummary, run_tournament
from referee.tournament.store import TournamentStore
from referee.validator.run import validate_paths
from referee.validator.summary import Summary

DaskOption = Annotated[
    str | None,
    typer.Option(help="run on a Dask cluster: tcp://host:port, or 'local' to start one here"),
]

tournament_app = typer.Typer(help="Round-robin bot tournaments.", no_args_is_help=True)


def _run(
    directory: Path,
    config: TournamentConfig | None,
    concurrency: int,
    dask: str | None,
    quiet: bool,
    standings: bool = True,
) -> None:
    with user_errors(), ExitStack() as stack:
        factory = None
        if dask is not None:
            factory = stack.enter_context(dask_executors(dask, concurrency))
        progress = stack.enter_context(TournamentProgress(enabled=not quiet))
        summary = run_tournament(directory, config, concurrency, factory, progress)
    _report(summary)
    if standings and not quiet:
        print_standings(directory)


def _report(summary: RunSummary) -> None:
    typer.echo(
        f"{summary.played} games played, {summary.already + summary.played} of "
        f"{summary.total} finished in {summary.directory / 'games.jsonl'}"
    )
    for message in summary.invalid:
        typer.echo(f"warning: a stored game did not validate: {message}", err=True)
    for message in summary.refused:
        typer.echo(f"warning: {message} was stored already; the new copy was not", err=True)
    for message in summary.failed:
        typer.echo(f"error: a batch of games could not be played: {message}", err=True)
    if summary.failed:
        raise typer.Exit(1)


@tournament_app.command("run")
def run(
    out: Annotated[Path, typer.Option(help="folder for tournament.json and games.jsonl")],
    config_file: Annotated[
        Path | None, typer.Option("--config", help="a TOML file with the options below")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", "-g")] = None,
    variant: Annotated[str | None, typer.Option()] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="a ruleset option as KEY=VALUE, e.g. match=5 for Takhteh matches"),
    ] = None,
    bots: Annotated[
        str | None, typer.Option(help="built-in bots, e.g. 'random,greedy,alphabeta:depth=4'")
    ] = None,
    external: Annotated[
        list[str] | None,
        typer.Option(help="an external bot as NAME=COMMAND (NAME@trax=... for the Trax protocol)"),
    ] = None,
    games_per_pair: Annotated[int | None, typer.Option(help="games per pairing (even)")] = None,
    seed: Annotated[str | None, typer.Option()] = None,
    turn_cap: Annotated[int | None, typer.Option(help="adjudicate a draw after N turns")] = None,
    time_limit: Annotated[float | None, typer.Option(help="seconds per move")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="games played at once")] = 1,
    dask: DaskOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
) -> None:
    """Play a round robin; every finished game is validated and stored at once."""
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
    directory: Annotated[Path, typer.Argument(help="the tournament's folder")],
    concurrency: Annotated[int, typer.Option(min=1)] = 1,
    dask: DaskOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
) -> None:
    """Play the games a stopped tournament is missing."""
    _run(directory, None, concurrency, dask, quiet)


@tournament_app.command("status")
def status(directory: Annotated[Path, typer.Argument(help="the tournament's folder")]) -> None:
    """How far a tournament is, and how its games ended."""
    with user_errors():
        store = TournamentStore(directory)
        info = store.load()
        duplicates = store.duplicates()
        jobs = store.by_job()
    records = [record for games in jobs.values() for record in games]
    total = len(info.jobs())
    config = info.config
    typer.echo(f"tournament {info.id}: {config.game}/{config.variant}, seed {config.seed}")
    typer.echo(f"bots: {', '.join(bot.name for bot in config.bots)}")
    repeats = sum(count - 1 for _, count in duplicates)
    typer.echo(
        f"games: {len(jobs)} of {total} scheduled finished, {len(records)} stored"
        + (f" ({repeats} more stored twice or more, not counted)" if repeats else "")
    )
    reasons = Counter(record.result.reason.value for record in records if record.result is not None)
    for reason, count in sorted(reasons.items()):
        typer.echo(f"  {reason}: {count}")
    for key, count in duplicates[:10]:
        typer.echo(f"warning: {describe_key(key)} is stored {count} times", err=True)
    if len(duplicates) > 10:
        typer.echo(f"warning: ... and {len(duplicates) - 10} more games stored twice", err=True)


@tournament_app.command("extend")
def extend(
    directory: Annotated[Path, typer.Argument(help="the tournament's folder")],
    games_per_pair: Annotated[
        int | None, typer.Option(min=2, help="the new number of games per pairing (even)")
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(min=1, help="the new number of rounds (a round: two games per pairing)"),
    ] = None,
) -> None:
    """Schedule more games per pairing: the games a tournament configured with the larger
    number from the start would play. Play them with 'referee tournament resume'."""
    if (games_per_pair is None) == (rounds is None):
        fail("give --games-per-pair N or --rounds R")
    with user_errors():
        store = TournamentStore(directory)
        store.load()  # no lock file in a folder that holds no tournament
        with store.lock():
            info, added = store.extend(games_per_pair or 2 * (rounds or 0))
    typer.echo(
        f"{directory}: {info.config.games_per_pair} games per pairing, {added} games added; "
        f"play them with 'referee tournament resume {directory}'"
    )


def demo(
    out: Annotated[Path, typer.Option(help="folder for the demo's tournaments")] = Path(
        "referee-demo"
    ),
    concurrency: Annotated[int, typer.Option(min=1)] = 2,
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
) -> None:
    """Run a round robin of the built-in bots of each game, validate every record, and print
    the rating tables (greedy = 0)."""
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
