"""Tournament commands: run, resume, status."""

from __future__ import annotations

import json
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.bounds import (
    MAX_GAMES,
    MAX_JOBS,
    MAX_LOG_MB,
    MAX_ROUNDS,
    MAX_SECONDS,
    MAX_TURNS,
    MIN_LOG_MB,
    MIN_SECONDS,
)
from referee.cli.output import echo, fail
from referee.cli.ratings import print_standings, ratings
from referee.games import GAME_NAMES
from referee.path_names import GAMES_FILE, REJECTED_FILE, REJECTED_NOTES
from referee.wording import plural

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig
    from referee.tournament.runner import RunSummary
    from referee.tournament.store import Damaged

DaskOption = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS",
        help="run on a Dask cluster: tcp://host:port, or 'local' to start one here",
    ),
]
ConcurrencyOption = Annotated[
    int,
    typer.Option(
        min=1,
        max=MAX_JOBS,
        help="games played at once (no more processes than pairs of games left)",
    ),
]
QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="only the results and errors: no notes, progress bar or standings"
    ),
]

KeepGoing = Annotated[
    bool,
    typer.Option(
        "--keep-going",
        help="record the forfeits of a program that cannot start instead of stopping (exit 2)",
    ),
]
EXIT_CODES = """

Exit codes: 0 every game played; 1 some batch of games could not be played; 2 bad input, or an
external program that could not start in its first two games (the run stops at once; the games
it could not start are not stored: fix the bot's launch settings and run the same command
again); 3 all played, but some game of this run was lost by `crash`; 130 or 143 stopped by
Ctrl-C or SIGTERM (every finished game is stored)."""


class VerifyChoice(StrEnum):
    all = "all"
    sample = "sample"
    none = "none"


VerifyOption = Annotated[
    VerifyChoice,
    typer.Option(
        help="games replayed through the validator after they are played: all, one in 16 "
        "(sample), or none; the engine that plays a game checks every move already"
    ),
]


class PairingSystem(StrEnum):
    round_robin = "round-robin"
    gauntlet = "gauntlet"


class OpeningsOrder(StrEnum):
    sequential = "sequential"
    random = "random"


tournament_app = typer.Typer(
    help="Bot tournaments: round robins, gauntlets and SPRTs.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def _games_per_pair(value: int | None) -> int | None:
    if value is not None and (value < 2 or value % 2):
        raise typer.BadParameter("must be an even number >= 2 (games are played in pairs)")
    return value


def _units(config: TournamentConfig) -> tuple[str, str]:
    """What the schedule counts: games, or matches when a game is played to a match length."""
    game, ruleset = config.rules()
    return ("match", "matches") if game.match_length(ruleset) > 1 else ("game", "games")


def _note_timed(config: TournamentConfig) -> None:
    """Said once games are about to be played: which of them depend on the machine."""
    from referee.tournament.timing import timed_bots

    timed = timed_bots(config)
    if timed:
        one = len(timed) == 1
        echo(
            f"note: {', '.join(timed)} {'stops' if one else 'stop'} at a time limit a move, so "
            f"{'its' if one else 'their'} moves depend on this machine's speed and load: the "
            "same --seed can give other games, on resume too",
            err=True,
        )


def _note_warm_up(config: TournamentConfig) -> None:
    """The game's line before work its bots do once a machine (solving THAX)."""
    from referee.tournament.timing import warm_up

    line = warm_up(config)
    if line is not None:
        echo(line, err=True)


def _run(
    directory: Path,
    config: TournamentConfig | None,
    concurrency: int,
    dask: str | None,
    quiet: bool,
    standings: bool = True,
    keep_going: bool = False,
    verify: VerifyChoice = VerifyChoice.sample,
) -> None:
    from referee.cli.progress import TournamentProgress, stopped_message
    from referee.tournament.executors import dask_executors
    from referee.tournament.runner import TournamentStopped, run_tournament
    from referee.tournament.store import TournamentStore

    known = config if config is not None else TournamentStore(directory).load().config
    unit = _units(known)
    if not quiet:
        _note_warm_up(known)
    try:
        with ExitStack() as stack:
            factory = None
            if dask is not None:
                from referee.tournament.schedule import schedule_size

                # A local cluster starts its workers first: no more than the schedule's pairs.
                workers = min(concurrency, schedule_size(known) // 2)
                factory = stack.enter_context(dask_executors(dask, workers))
            progress = stack.enter_context(
                TournamentProgress(
                    not quiet, unit[1], before_play=None if quiet else lambda: _note_timed(known)
                )
            )
            summary = run_tournament(
                directory,
                config,
                concurrency=concurrency,
                executor_factory=factory,
                progress=progress,
                keep_going=keep_going,
                verify=verify.value,
            )
    except TournamentStopped as stopped:  # SIGINT or SIGTERM while games were played
        echo(str(stopped), err=True)
        raise typer.Exit(128 + stopped.signal) from None
    except KeyboardInterrupt:  # Ctrl-C before or after the games
        store = TournamentStore(directory)
        stored = store.tally().games if store.exists() else 0
        echo(stopped_message(directory, stored), err=True)
        raise SystemExit(130) from None
    _report(summary, unit)
    if summary.damaged.count:
        _warn_damaged(directory, summary.damaged)  # the standings would refuse the file
    elif standings and not quiet:
        print_standings(directory)
    if summary.crashes:
        echo(
            f"referee: warning: {plural(summary.crashes, 'game')} of this run lost by crash: "
            f"{_crash_reasons(summary, known, directory)}",
            err=True,
        )
        raise typer.Exit(3)


def _crash_reasons(summary: RunSummary, config: TournamentConfig, directory: Path) -> str:
    """Why each bot lost its first game of the run by crash: a built-in bot's exception, a
    program's exit and last stderr line with its log (built-in bots have none)."""
    from referee.tournament.worker import log_path

    programs = {bot.name for bot in config.bots if bot.command is not None}
    return "; ".join(
        f"{name}: {detail}" + (f" (log: {log_path(directory, name)})" if name in programs else "")
        for name, detail in summary.crashed.items()
    )


def _report(summary: RunSummary, unit: tuple[str, str]) -> None:
    played = plural(summary.played, *unit)
    if unit[0] == "match":
        played += f" ({plural(summary.stored, 'game')})"
    finished = summary.already + summary.played
    where = summary.directory / GAMES_FILE
    sprt = summary.sprt
    if sprt is not None and sprt.decision is not None and not summary.failed:
        echo(
            f"{played} played, {finished} finished in {where}; the SPRT decided after "
            f"{sprt.counted()}: nothing is left to play"
        )
    else:
        echo(f"{played} played, {finished} of {summary.total} finished in {where}")
    for message in summary.invalid:
        echo(f"referee: warning: a stored game did not validate: {message}", err=True)
    if summary.sprt is not None:
        echo(summary.sprt.text())
    for message in summary.warnings:
        echo(f"referee: warning: {message}", err=True)
    for message in summary.refused:
        echo(f"referee: warning: {message} was stored already; the new copy was not", err=True)
    for message in summary.failed:
        echo(f"referee: error: a batch of games could not be played: {message}", err=True)
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
        str | None,
        typer.Option(
            "--game", "-g", help=f"the game: {', '.join(GAME_NAMES[:-1])} or {GAME_NAMES[-1]}"
        ),
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
    bot_option: Annotated[
        list[str] | None,
        typer.Option(
            help="a launch setting of an external bot as NAME.KEY=VALUE: dir, args, env "
            "(NAME.env=VAR=VALUE), startup_time, time_limit, trax_team, memory_mb, max_line"
        ),
    ] = None,
    pass_env: Annotated[
        list[str] | None,
        typer.Option(help="a variable of this environment passed to every external bot"),
    ] = None,
    log_limit_mb: Annotated[
        float | None,
        typer.Option(
            min=MIN_LOG_MB,
            max=MAX_LOG_MB,
            help="cap of each external bot's stderr log (default 10)",
        ),
    ] = None,
    games_per_pair: Annotated[
        int | None,
        typer.Option(
            callback=_games_per_pair,
            max=MAX_ROUNDS,
            help="games per pairing, an even number (seats swapped)  [default: 2]",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(help="the seed of every game's dice and random bots (any text)  [default: 1]"),
    ] = None,
    turn_cap: Annotated[
        int | None,
        typer.Option(
            min=1, max=MAX_TURNS, help="adjudicate a draw after N turns  [default: the game's own]"
        ),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            min=MIN_SECONDS,
            max=MAX_SECONDS,
            help="seconds per move for external bots  [default: 60]",
        ),
    ] = None,
    tc: Annotated[
        str | None,
        typer.Option(
            "--tc",
            metavar="BASE+INC",
            help="game clock: BASE seconds a game plus INC seconds a move, e.g. 10+0.1 or 40",
        ),
    ] = None,
    adjudicate: Annotated[
        list[str] | None,
        typer.Option(
            metavar="RULE",
            help="end a game by the bots' scores: resign=SCORE:MOVES or "
            "draw=SCORE:MOVES:AFTER (repeatable)",
        ),
    ] = None,
    pairing_system: Annotated[
        PairingSystem | None,
        typer.Option("--format", help="round-robin (every pairing) or gauntlet (see --seeds)"),
    ] = None,
    seeds: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_ROUNDS,
            help="gauntlet: the first N bots each play every other bot  [default: 1]",
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_ROUNDS, help="play the whole schedule N times  [default: 1]"),
    ] = None,
    openings: Annotated[
        str | None,
        typer.Option(
            metavar="FILE|NAME",
            help="an opening suite, one opening a line, or the name of one shipped with "
            "referee (`referee openings --list`); each is played by every pairing in both "
            "seats (docs/tournaments.md)",
        ),
    ] = None,
    openings_order: Annotated[
        OpeningsOrder | None, typer.Option(help="the suite's order, or a seeded shuffle")
    ] = None,
    openings_start: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_GAMES, help="the opening to begin with  [default: 1]"),
    ] = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
            help="test the first bot against the second: stop when the SPRT decides, or at "
            "--games-per-pair",
        ),
    ] = None,
    luck_adjusted: Annotated[
        bool,
        typer.Option(
            "--luck-adjusted",
            help="THAX, Takhteh: the SPRT scores each pair by its games' luck-adjusted "
            "results (docs/ratings.md), analysed as they end",
        ),
    ] = False,
    engine: Annotated[
        str | None,
        typer.Option(
            metavar="SPEC",
            help="--luck-adjusted: the reference that values the rolls, as `referee analyse "
            "--engine` takes it  [default: the game's own]",
        ),
    ] = None,
    concurrency: ConcurrencyOption = 1,
    dask: DaskOption = None,
    quiet: QuietOption = False,
    keep_going: KeepGoing = False,
    verify: VerifyOption = VerifyChoice.sample,
) -> None:
    """Play a round robin, a gauntlet or an SPRT; every finished game is stored at once."""
    from referee.tournament.config import (
        bot_entries,
        build_config,
        load_config_file,
        ruleset_options,
        split_bot_specs,
        with_bot_options,
        with_openings,
    )

    fields: dict[str, object] = {
        "game": game,
        "variant": variant,
        "games_per_pair": games_per_pair,
        "seed": seed,
        "turn_cap": turn_cap,
        "time_limit": time_limit,
        "pass_env": pass_env or None,
        "log_limit_mb": log_limit_mb,
        "tc": tc,
        "format": pairing_system.value if pairing_system is not None else None,
        "seeds": seeds,
        "rounds": rounds,
        "openings_order": openings_order.value if openings_order is not None else None,
        # Checked against the suite, once it is read (`with_openings`).
        "openings_start": openings_start if openings is None else None,
        "sprt": sprt,
    }
    if adjudicate:
        fields["adjudicate"] = adjudicate
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
    config = with_bot_options(config, bot_option or [], Path.cwd())
    if openings is not None:
        config = with_openings(config, openings, Path.cwd(), start=openings_start)
    if engine is not None and not luck_adjusted:
        fail("--engine goes with --luck-adjusted")
    if luck_adjusted and config.sprt is None:
        fail("--luck-adjusted scores an SPRT's pairs: give --sprt too")
    if luck_adjusted or config.luck_adjusted is not None:
        from referee.tournament.luck import with_luck_adjustment

        # The reference as it writes itself, so that its analyses are found by its name.
        config = with_luck_adjustment(
            config, engine if engine is not None else config.luck_adjusted
        )
    _run(out, config, concurrency, dask, quiet, keep_going=keep_going, verify=verify)


run.__doc__ = (run.__doc__ or "") + EXIT_CODES


@tournament_app.command("resume")
def resume(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="the tournament's folder")],
    concurrency: ConcurrencyOption = 1,
    dask: DaskOption = None,
    quiet: QuietOption = False,
    keep_going: KeepGoing = False,
    verify: VerifyOption = VerifyChoice.sample,
) -> None:
    """Play the games a stopped tournament is missing (the values of the bots' env come from
    this environment: tournament.json keeps their names only)."""
    _run(directory, None, concurrency, dask, quiet, keep_going=keep_going, verify=verify)


resume.__doc__ = (resume.__doc__ or "") + EXIT_CODES


@tournament_app.command("status")
def status(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="the tournament's folder")],
    json_output: Annotated[
        bool, typer.Option("--json", help="one JSON object, for other tools (docs/tournaments.md)")
    ] = False,
) -> None:
    """How far a tournament is, and how its games ended."""
    if json_output:
        from referee.tournament.status import tournament_status

        typer.echo(json.dumps(tournament_status(directory), indent=2))
        return
    from referee.records.keys import describe_key
    from referee.tournament.sequential import stored_test
    from referee.tournament.store import TournamentStore

    store = TournamentStore(directory)
    info = store.load()
    config = info.config
    total = info.size()
    tally = store.tally(total, results=config.sprt is not None)
    unit = _units(config)
    echo(f"tournament {info.id}: {config.game}/{config.variant}, seed {config.seed}")
    echo(f"bots: {', '.join(bot.name for bot in config.bots)}")
    duplicates = list(tally.repeats.items())
    repeats = sum(count - 1 for _, count in duplicates)
    test = stored_test(info, tally.results, directory)
    decided = test is not None and test.decided_at is not None
    finished = (
        f"{tally.jobs} finished (the SPRT's cap: {total})"
        if decided
        else f"{tally.jobs} of {total} scheduled finished"
    )
    echo(
        f"{unit[1]}: {finished}, {plural(tally.games, 'game')} stored"
        + (f" ({repeats} more stored twice or more, not counted)" if repeats else "")
    )
    for reason, count in sorted(tally.reasons.items()):
        echo(f"  {reason}: {count}")
    failed = store.failed_start()
    if failed is not None:
        echo(
            f"the last run stopped: {failed}; those games are not stored: fix the bot's launch "
            "settings and run the same command again"
        )
    if test is not None:
        sprt = test.state()
        echo(sprt.text())
        if decided:
            unplayed = test.unplayed(tally.results)
            echo(
                f"the SPRT decided after {sprt.counted()}: "
                + (
                    f"{plural(unplayed, *unit)} of its last wave left to play "
                    f"(referee tournament resume {directory})"
                    if unplayed
                    else "nothing is left to play"
                )
            )
    for key, count in duplicates[:10]:
        echo(f"referee: warning: {describe_key(key)} is stored {count} times", err=True)
    if len(duplicates) > 10:
        echo(f"referee: warning: ... and {len(duplicates) - 10} more games stored twice", err=True)
    if tally.damaged.count:
        _warn_damaged(directory, tally.damaged)


def _warn_damaged(directory: Path, damaged: Damaged) -> None:
    """Name each damaged line of games.jsonl (the first few) and how to repair the folder."""
    games = directory / GAMES_FILE
    for line, reason in damaged.shown:
        echo(f"referee: warning: {games}:{line}: {reason}", err=True)
    more = damaged.count - len(damaged.shown)
    if more:
        echo(f"referee: warning: ... and {plural(more, 'more damaged line')}", err=True)
    echo(
        f"referee: warning: {plural(damaged.count, 'damaged line')} in {games} (a game whose "
        "key can still be read counts as stored); move damaged lines aside with "
        f"'referee tournament repair {directory}'",
        err=True,
    )


@tournament_app.command("repair")
def repair(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="the tournament's folder")],
) -> None:
    """Move the lines of games.jsonl that are no valid record (those 'referee validate'
    refuses, and a last line cut short) to DIR/games.rejected, each noted with why in
    DIR/games.rejected.txt; the other lines stay as they were. Their games are then no longer
    stored: 'referee tournament resume' plays them again."""
    from referee.tournament.store import TournamentStore

    store = TournamentStore(directory)
    store.load()  # no lock file in a folder that holds no tournament
    moved = store.repair()
    games = directory / GAMES_FILE
    if not moved:
        echo(f"{games}: every line is a valid record; nothing to repair")
        return
    for line, reason in moved:
        echo(f"{games}:{line}: moved aside: {reason}")
    echo(
        f"{plural(len(moved), 'line')} moved to {directory / REJECTED_FILE} (why in "
        f"{REJECTED_NOTES}); play their games again with 'referee tournament resume {directory}'"
    )


@tournament_app.command("extend")
def extend(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="the tournament's folder")],
    games_per_pair: Annotated[
        int | None,
        typer.Option(
            callback=_games_per_pair,
            max=MAX_ROUNDS,
            help="the new number of games per pairing a round (even)",
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_ROUNDS, help="the new number of rounds of the whole schedule"),
    ] = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
            help="new bounds for the SPRT, which the stored games must not have reached",
        ),
    ] = None,
) -> None:
    """Schedule more games: the games a tournament configured with the larger number from the
    start would play. Play them with 'referee tournament resume'. An SPRT that has decided
    grows only with other bounds (--sprt) that the stored games have not reached."""
    from referee.tournament.sequential import extend_tournament
    from referee.tournament.store import TournamentStore

    if games_per_pair is None and rounds is None and sprt is None:
        fail("give --games-per-pair N, --rounds R or --sprt BOUNDS")
    store = TournamentStore(directory)
    store.load()  # no lock file in a folder that holds no tournament
    with store.lock():
        info, added = extend_tournament(store, games_per_pair, rounds, sprt)
    echo(
        f"{directory}: {info.config.games_per_pair} games per pairing x "
        f"{plural(info.config.rounds, 'round')}, {plural(added, 'game')} added"
        + (f", SPRT {info.config.sprt}" if sprt is not None else "")
        + f"; play them with 'referee tournament resume {directory}'"
    )


def demo(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="folder for the demo's tournaments")
    ] = Path("referee-demo"),
    concurrency: ConcurrencyOption = 2,
    quiet: QuietOption = False,
) -> None:
    """Run a round robin of the built-in bots of each game, validate every record, and print
    the rating tables (greedy = 0)."""
    from referee.cli.tables import print_summary
    from referee.tournament.demo import demo_configs, next_steps
    from referee.validator.run import validate_paths
    from referee.validator.summary import Summary

    configs = demo_configs()
    for game, config in configs.items():
        echo(f"{game}: {', '.join(bot.name for bot in config.bots)}")
        _run(out / game, config, concurrency, None, quiet, standings=False)
    folders = [str(out / game) for game in configs]
    summary = Summary()
    for report in validate_paths(folders, jobs=1):
        summary.add(report)
        if not report.valid:
            for diagnostic in report.diagnostics:
                echo(diagnostic.one_line(), err=True)
    print_summary(summary)
    # Every game's demo has greedy in the middle of its ladder: rated from it, the strict
    # ladders of Trax and Thai checkers keep finite bounds on both sides (docs/ratings.md).
    ratings([out / game for game in configs], anchor=["greedy"])
    if summary.invalid:
        raise typer.Exit(1)
    if not quiet:
        what, commands = next_steps(out)
        echo(what)  # after the blank line that ends the last table
        for command in commands:
            echo(f"  {command}")


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
    app.command()(demo)
