"""What a report shows, gathered from tournament folders and record files.

The rating tables come from the same code as `referee ratings` (so the two always agree); the
games are read a second time in full, for the list and the viewer, and replayed through their
engines so that every position can be drawn. Each game's analysis, when an analysis file holds
it (`analysed.py`), comes with it: its figures in the list, each turn's in the viewer, each
bot's in the standings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.games import get_game
from referee.games.base import Game, RulesetError, State, ruleset_variant
from referee.ratings.errors import RatingsInputError
from referee.ratings.plot import ratings_svg
from referee.ratings.results import read_games, record_files
from referee.ratings.table import RatingOptions, RatingTable, build_tables
from referee.records.formats import detect_stream
from referee.records.model import FORFEITS, Record, Result, Turn
from referee.records.replay import ReplayError, game_of, replay, start_state
from referee.report.analysed import (
    Analyses,
    BotFigures,
    analysis_files,
    bot_figures,
    seat_figures,
    turn_figures,
)
from referee.report.boards import BoardEncoder
from referee.tournament.config import ConfigError
from referee.tournament.sequential import sprt_status
from referee.tournament.store import TournamentStore


@dataclass(frozen=True)
class GameRow:
    """One game of the report's list."""

    file: str
    number: int
    """1-based place of the game in its file, as `referee show --game-number` counts."""
    ruleset: str
    players: tuple[str, str]
    result: str
    """`1-0`, `0-1`, `½-½`, or `*` for a game without a result."""
    reason: str
    """Why it ended (with the points when a win is worth more than one), or empty."""
    detail: str
    turns: int
    forfeited_by: str | None
    """The player who lost by a forfeit (time, crash, illegal move, protocol error)."""
    analysis: list[list[Any]] | None = None
    """Each seat's [error per decision, blunders, net luck] when the game is analysed
    (`analysed.seat_figures`)."""


@dataclass(frozen=True)
class Report:
    title: str
    facts: list[str]
    """Short lines about where the games come from (tournament, configuration, files)."""
    tables: list[RatingTable]
    plot_svg: str | None
    """The ratings plot, or None when no game is finished."""
    files: list[str]
    games: list[GameRow]
    packs: list[str]
    """Per game, its turns as [seat, roll, move] and its positions as token numbers, packed
    (`boards.BoardEncoder.pack_game`)."""
    errors: list[str | None]
    """Per game, why its record stops replaying, if it does."""
    tokens: str
    """The SVG tokens of all boards, packed (`boards.BoardEncoder.pack_tokens`)."""
    bots: dict[tuple[str, str], dict[str, BotFigures]]
    """Per (game, variant) of a rating table, each bot's analysed games summed up; empty
    without an analysis."""


def _result_text(result: Result | None) -> str:
    if result is None:
        return "*"
    if result.winner is None:
        return "½-½"
    return "1-0" if result.winner == 0 else "0-1"


def _reason_text(result: Result | None) -> str:
    if result is None:
        return ""
    reason = result.reason.value.replace("_", " ")
    return f"{reason}, {result.points} points" if result.points != 1 else reason


def _row(
    file: str, number: int, record: Record, analysis: list[list[Any]] | None = None
) -> GameRow:
    result = record.result
    players = (record.players[0].name, record.players[1].name)
    forfeited_by = None
    if result is not None and result.winner is not None and result.reason in FORFEITS:
        forfeited_by = players[1 - result.winner]
    return GameRow(
        file=file,
        number=number,
        ruleset=record.ruleset,
        players=players,
        result=_result_text(result),
        reason=_reason_text(result),
        detail=(result.detail or "") if result is not None else "",
        turns=len(record.turns),
        forfeited_by=forfeited_by,
        analysis=analysis,
    )


def _records(path: Path) -> Iterator[Record]:
    """The records of a file. `read_games` has read it before and refused any bad record, so
    these errors only meet a file that changed in between."""
    with path.open("rb") as raw:
        file_format, stream = detect_stream(path, raw)
        if file_format is None:
            raise RatingsInputError("not a game record file in any format referee reads", path=path)
        for loaded in file_format.read(stream):
            if loaded.record is None:
                raise RatingsInputError(f"record {loaded.number}: {loaded.error}", path=path)
            yield loaded.record


def _positions(
    record: Record,
) -> tuple[Game[Any, Any] | None, list[State[Any]], list[State[Any]], str | None]:
    """The record's engine, its start and the position after each turn, the position each
    turn was played in (its dice rolled), as far as the record replays, and why it stops when
    it does."""
    game = None
    states: list[State[Any]] = []
    befores: list[State[Any]] = []
    try:
        game = game_of(record)
        states.append(start_state(record, game))
        for step in replay(record, game):
            befores.append(step.before)
            states.append(step.after)
    except ReplayError as error:
        where = "" if error.turn is None else f" at turn {error.turn + 1}"
        # A start that cannot be built (an unknown option, a bad `start`) leaves no position
        # to draw: the game's turns are shown without boards, as without an engine.
        engine = game if states else None
        return engine, states, befores, f"the record stops replaying{where}: {error.message}"
    return game, states, befores, None


def _turns(record: Record) -> list[list[Any]]:
    """Per turn [seat, roll, move], and when the bot reported anything or played on a clock,
    its score with the depth (the list shows it) and all it said (the caption does)."""
    turns = []
    for turn in record.turns:
        row: list[Any] = [
            turn.seat,
            "" if turn.roll is None else f"{turn.roll[0]}-{turn.roll[1]}",
            turn.move,
        ]
        note = engine_note(turn)
        if note:
            row += [score_text(turn), note]
        turns.append(row)
    return turns


def score_text(turn: Turn) -> str:
    """The score with its depth, cutechess style (`+35/12`); empty without a score."""
    if turn.score is None:
        return ""
    score = f"{turn.score:+d}" if isinstance(turn.score, int) else f"{turn.score:+.4g}"
    return score if turn.depth is None else f"{score}/{turn.depth}"


def engine_note(turn: Turn) -> str:
    """What a bot said about its move and its clock, in words; empty when there is none."""
    parts = []
    if turn.score is not None:
        parts.append(f"score {score_text(turn)}")
    elif turn.depth is not None:
        parts.append(f"depth {turn.depth}")
    if turn.nodes is not None:
        parts.append(f"{turn.nodes:,} nodes")
    if turn.clock_ms is not None:
        used = "" if turn.time_ms is None else f"{turn.time_ms / 1000:.3f} s used, "
        parts.append(f"{used}{turn.clock_ms / 1000:.3f} s left on the clock")
    if turn.pv:
        parts.append("expects " + " ".join(turn.pv))
    return "; ".join(parts)


def _game_title(name: str) -> str:
    """A game's title (`Takhteh`), or its name when it is not a known game."""
    try:
        return get_game(name).title
    except RulesetError:
        return name


def _about(paths: list[Path], files: list[Path], events: set[str | None]) -> tuple[str, list[str]]:
    """A title and a few facts: from tournament.json when a path is a tournament folder. The
    title is the event when every game and tournament names the same one (`events`: those of
    the games), else what the tournaments are, else the files' names."""
    facts = []
    titles = []
    for path in paths:
        store = TournamentStore(path)
        if not (path.is_dir() and store.exists()):
            continue
        try:
            info = store.load()
        except ConfigError as error:
            facts.append(str(error))
            continue
        config = info.config
        bots = ", ".join(bot.name for bot in config.bots)
        kind = "a gauntlet" if config.pairing_system == "gauntlet" else "a round robin"
        events.add(config.event)
        titles.append(f"{_game_title(config.game)} {kind.partition(' ')[2]} of {bots}")
        rounds = f" x {config.rounds} rounds" if config.rounds > 1 else ""
        openings = f", {len(config.openings)} openings" if config.openings else ""
        facts.append(
            f"Tournament {info.id}, created {info.created}: {config.game}/{config.variant}, "
            f"{kind}, {config.games_per_pair} games per pairing{rounds}{openings}, "
            f"seed {config.seed}; bots: {bots}."
        )
        if config.sprt is not None:
            state = sprt_status(info, store.tally(results=True).results, store.directory)
            if state is not None:
                facts.append(state.text())
    facts.append("Games from " + ", ".join(str(file) for file in files) + ".")
    if len(events) == 1 and None not in events:
        return str(next(iter(events))), facts
    if titles:
        return "; ".join(titles), facts
    return "Games of " + ", ".join(file.name for file in files), facts


def collect(
    paths: Iterable[str | Path],
    options: RatingOptions | None = None,
    analyses: Iterable[str | Path] = (),
) -> Report:
    """Everything a report shows, from tournament folders and record files (any mix), with
    the rating tables fitted with `options` (`referee ratings`' defaults when None), and the
    analysis of each game that the tournament folders' analysis files or `analyses` hold.

    Raises `RatingsInputError` for a missing path, a folder that is no tournament folder or
    a record that cannot be read, `AnalysisFileError` for an analysis file that cannot be
    read or that holds an analysis of another game.
    """
    given = [Path(path) for path in paths]
    tables = build_tables(read_games(given), options)
    files = record_files(given)
    found = Analyses(analysis_files(given, [Path(path) for path in analyses]))
    analysed = []
    rows: list[GameRow] = []
    packs: list[str] = []
    errors: list[str | None] = []
    encoder = BoardEncoder()
    events: set[str | None] = set()
    for file in files:
        for number, record in enumerate(_records(file), 1):
            events.add(record.event.event)
            stored = found.find(file, number, record)
            if stored is not None:
                analysed.append(((record.game, ruleset_variant(record.ruleset)), stored))
            rows.append(
                _row(str(file), number, record, None if stored is None else seat_figures(stored))
            )
            game, states, befores, error = _positions(record)
            figures = None if stored is None else turn_figures(stored)
            packs.append(encoder.pack_game(game, states, befores, _turns(record), figures))
            errors.append(error)
    title, facts = _about(given, files, events)
    if found.files:
        engines = ", ".join(sorted({stored.engine for _, stored in analysed})) or "none"
        facts.append(
            f"Analysis of {len(analysed)} of {len(rows)} games (reference {engines}) from "
            + ", ".join(str(file) for file in found.files)
            + "."
        )
    return Report(
        title=title,
        facts=facts,
        tables=tables,
        plot_svg=ratings_svg(tables) if tables else None,
        files=[str(file) for file in files],
        games=rows,
        packs=packs,
        errors=errors,
        tokens=encoder.pack_tokens(),
        bots=bot_figures(analysed),
    )
