"""Analysing the games of record files: each game's reference found once a run, files read in
any format referee reads (as `referee validate` reads them), in worker processes with
several jobs, file by file in the order given.

A game that cannot be read or replayed stops the run with its file, line and reason
(`AnalysisError`): an analysis of part of a game would mislead. The references keep what they
worked out (`games.reference.ValueCache`, THAX's tables), so that the positions games share,
their openings above all, are valued once a run in each process.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any

from referee.analysis.summary import GameAnalysis, scores
from referee.analysis.turns import analyse_turns
from referee.bounds import MAX_JOBS
from referee.errors import RefereeError
from referee.escaping import escaped
from referee.games.base import Game, GameError, Reference
from referee.path_names import STDIN, STDIN_NAME
from referee.records.formats import detect_stream
from referee.records.io import Loaded
from referee.records.keys import game_key
from referee.records.model import Record
from referee.records.replay import ReplayError, game_of


class AnalysisError(RefereeError, ValueError):
    """A game that cannot be analysed: it does not read or replay, or its game has no
    reference."""

    code = "analysis"


class Engines:
    """The reference of each game met in a run, made once from the spec given (None: each
    game's default)."""

    def __init__(self, spec: str | None) -> None:
        self.spec = spec
        self._made: dict[str, Reference[Any, Any]] = {}

    def reference(self, game: Game[Any, Any]) -> Reference[Any, Any]:
        made = self._made.get(game.name)
        if made is None:
            found = game.reference(self.spec)
            if found is None:
                raise AnalysisError(f"{game.title} has no reference to analyse its games by")
            made = self._made[game.name] = found
        return made


def analyse_loaded(file: str, loaded: Loaded, engines: Engines) -> GameAnalysis:
    """The analysis of one game read from `file`; AnalysisError, at its line, if it cannot be
    read, replayed or analysed."""
    record = loaded.record
    if record is None:
        error = loaded.error
        assert error is not None
        raise AnalysisError(
            f"game {loaded.number}: {error.message} [{error.code}]",
            path=file,
            line=loaded.line or None,
        )
    return analyse_record(record, engines, file=file, number=loaded.number, line=loaded.line)


def analyse_record(
    record: Record, engines: Engines, *, file: str = "", number: int = 1, line: int = 0
) -> GameAnalysis:
    """The analysis of a game's record (game `number` of `file`, at `line`: where messages
    and the analysis say it is, 0 where not known); AnalysisError if it cannot be replayed or
    analysed."""
    where = f"game {number}"
    path, at = file or None, line or None
    try:
        game = game_of(record)
        reference = engines.reference(game)
        opening, turns = analyse_turns(record, game, reference)
    except (AnalysisError, GameError) as error:  # no reference, or not the one asked for
        raise AnalysisError(f"{error.message}", code=error.code, path=path, line=at) from None
    except ReplayError as error:
        if error.turn is not None:
            where += f", turn {error.turn + 1}"
        raise AnalysisError(
            f"{where}: {error.message} [{error.code}]", path=path, line=at
        ) from None
    first, second = record.players
    return GameAnalysis(
        file=file,
        game_number=number,
        line=line,
        key=game_key(record),
        game=record.game,
        engine=reference.spec,
        players=(first.name, second.name),
        result=scores(record.result),
        opening=opening,
        turns=turns,
    )


def analyse_stream(stream: IO[bytes], file: str, engines: Engines) -> Iterator[GameAnalysis]:
    """Every game of an open record file, analysed in order."""
    file_format, stream = detect_stream(None if file == STDIN_NAME else Path(file), stream)
    if file_format is None:
        raise AnalysisError("not a game record file in any format referee reads", path=file)
    empty = True
    for loaded in file_format.read(stream):
        empty = False
        yield analyse_loaded(file, loaded, engines)
    if empty:
        raise AnalysisError("the file holds no game", path=file)


def analyse_file(file: str, engines: Engines) -> Iterator[GameAnalysis]:
    """Every game of a file (`-`: standard input), analysed in order."""
    if file == STDIN:
        yield from analyse_stream(sys.stdin.buffer, STDIN_NAME, engines)
        return
    with Path(file).open("rb") as stream:
        yield from analyse_stream(stream, escaped(file), engines)


_engines: dict[str | None, Engines] = {}
"""This process's references by spec, kept from file to file and game to game (a forked
worker starts with those its parent made)."""


def engines_for(spec: str | None) -> Engines:
    """This process's references of the spec `spec` (None: each game's default)."""
    return _engines.setdefault(spec, Engines(spec))


def _whole_file(file: str, spec: str | None) -> tuple[list[GameAnalysis], str | None]:
    """In a worker: a file's analyses, and the error that stopped them (as its one line: an
    error's own fields do not cross the process boundary)."""
    engines = engines_for(spec)
    found: list[GameAnalysis] = []
    try:
        found.extend(analyse_file(file, engines))
    except RefereeError as error:
        return found, str(error)
    return found, None


def analyse_files(files: list[str], spec: str | None, jobs: int = 1) -> Iterator[GameAnalysis]:
    """The analyses of every game, file by file in the order given: streamed with one job, and
    with more, whole files analysed at once in worker processes (no more than MAX_JOBS, nor
    than the files on disk)."""
    engines = Engines(spec)
    on_disk = [file for file in files if file != STDIN]
    jobs = min(jobs, len(on_disk), MAX_JOBS)
    if jobs <= 1:
        for file in files:
            yield from analyse_file(file, engines)
        return
    # Forked (Python 3.14 defaults to forkserver): workers know the games registered by a call.
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("fork")
    ) as pool:
        parallel = pool.map(_whole_file, on_disk, [spec] * len(on_disk))
        for file in files:
            if file == STDIN:
                yield from analyse_file(file, engines)
                continue
            analyses, error = next(parallel)
            yield from analyses
            if error is not None:
                raise AnalysisError(error)
