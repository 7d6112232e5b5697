"""Running a tournament: schedule, execute in batches, validate and store every game at once."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Protocol

from referee.bots.process import kill_orphans
from referee.bots.registry import make_bot
from referee.errors import RefereeError
from referee.records.keys import describe_key, game_key
from referee.records.model import Reason, Record
from referee.tournament.config import TournamentConfig, with_environment, without_secrets
from referee.tournament.executors import ExecutorFactory, process_pool, shutdown, stop_at_once
from referee.tournament.play import job_finished
from referee.tournament.schedule import GameJob
from referee.tournament.sequential import SprtTracker, wave_of
from referee.tournament.store import TournamentFile, TournamentStore
from referee.tournament.worker import (
    GROUPS,
    PlayedBatch,
    PlayedGame,
    play_batch,
    tournament_ruleset,
)
from referee.validator.check import validate_record

if TYPE_CHECKING:
    from referee.ratings.sprt import SprtState

PAIRS_PER_BATCH = 4
RESTARTS = 3


POLL = 0.2
"""Seconds between the runner's looks at whether it was told to stop."""


class TournamentError(RefereeError, RuntimeError):
    """A tournament that could not play all its games; what was played is stored."""

    code = "tournament"


class TournamentStopped(Exception):
    """SIGINT or SIGTERM stopped the run; every finished game is stored."""

    def __init__(self, directory: Path, stored: int, number: int) -> None:
        super().__init__(
            f"stopped: {stored} games stored; continue with `referee tournament resume {directory}`"
        )
        self.signal = number


@dataclass
class RunSummary:
    directory: Path
    total: int
    """Games (or matches) in the schedule."""
    already: int
    """Of those, finished before this run."""
    played: int = 0
    """Finished in this run."""
    stored: int = 0
    """Game records stored in this run (a match stores one per game)."""
    invalid: list[str] = field(default_factory=list)
    """Messages about games that failed validation (they are kept, never dropped)."""
    failed: list[str] = field(default_factory=list)
    """Why batches of games could not be played (the rest of the tournament went on)."""
    crashes: int = 0
    """Games of this run lost by `crash` (a program that failed or could not start)."""
    sprt: SprtState | None = None
    """Where the SPRT stands after the run, for a tournament that runs one."""
    refused: list[str] = field(default_factory=list)
    """Games played again although stored already: the store kept the first copy only."""


class Progress(Protocol):
    """Told how many games (or matches) there are, then of each one finished."""

    def start(self, total: int, already: int) -> None: ...

    def advance(self, records: list[Record]) -> None: ...


def batches(jobs: list[GameJob], pairs_per_batch: int = PAIRS_PER_BATCH) -> Iterator[list[GameJob]]:
    """Whole seat-swapped pairs, a few at a time: a killed run loses only the batches in flight."""
    by_pair: dict[int, list[GameJob]] = {}
    for job in jobs:
        by_pair.setdefault(job.pair, []).append(job)
    pairs = list(by_pair.values())
    for start in range(0, len(pairs), pairs_per_batch):
        yield [job for pair in pairs[start : start + pairs_per_batch] for job in pair]


def check_participants(config: TournamentConfig) -> None:
    """Fail before anything is written when the game, variant or a built-in bot is unknown."""
    tournament_ruleset(config)
    for entry in config.bots:
        if entry.spec is not None:
            make_bot(config.game, entry.spec).close()


def run_tournament(
    directory: Path,
    config: TournamentConfig | None = None,
    concurrency: int = 1,
    executor_factory: ExecutorFactory | None = None,
    progress: Progress | None = None,
    keep_going: bool = False,
) -> RunSummary:
    """Play every missing game of the tournament in `directory` (created from `config`).

    Unless `keep_going`, a program that cannot start in each of its first two games stops the
    run at once (TournamentError). SIGINT and SIGTERM stop it within seconds
    (TournamentStopped); every game finished by then is stored, and no bot is left running.
    The runner holds the folder's lock throughout: a second runner on the same folder is
    refused at once (FolderBusy) instead of playing the same games again.
    """
    store = TournamentStore(directory)
    if config is not None:
        check_participants(config)
    elif not store.exists():
        store.load()  # says that there is no tournament here, before any lock file is made
    with store.lock():
        return _run_locked(store, config, concurrency, executor_factory, progress, keep_going)


def _run_locked(
    store: TournamentStore,
    config: TournamentConfig | None,
    concurrency: int,
    executor_factory: ExecutorFactory | None,
    progress: Progress | None,
    keep_going: bool,
) -> RunSummary:
    directory = store.directory
    # tournament.json keeps the names of the bots' env, not their values (secrets).
    info: TournamentFile = (
        store.create(without_secrets(config)) if config is not None else store.load()
    )
    game, ruleset = tournament_ruleset(info.config)
    length = game.match_length(ruleset)
    stored = store.by_job()
    everything = info.jobs()
    jobs = [job for job in everything if not job_finished(stored.get(job.number, []), length)]
    tracker = _sprt_tracker(info.config, everything, length, stored)
    if tracker is not None and (last := tracker.last_wave()) is not None:
        jobs = [job for job in jobs if wave_of(job) <= last]
    total = len(everything)
    summary = RunSummary(directory, total, total - len(jobs))
    if tracker is not None:
        summary.sprt = tracker.state()
    if progress is not None:
        progress.start(summary.total, summary.already)
    if not jobs:
        return summary

    playing = config if config is not None else with_environment(info.config)
    run = _Run(store, info.id, playing, length, stored, summary, progress, keep_going)
    waves = _waves(jobs, sequential=tracker is not None)
    run.pending = waves.pop(0)
    with store.open_for_append() as out, _stop_signals() as told:
        for _attempt in range(RESTARTS + 1):
            executor = (executor_factory or process_pool(concurrency))()
            try:
                while True:
                    broken = run.attempt(executor, out, told)
                    if broken:
                        break
                    if tracker is not None:
                        tracker.update(stored)
                        summary.sprt = tracker.state()
                        if tracker.decided_at is not None:
                            waves.clear()
                    if not waves:
                        break
                    run.pending = waves.pop(0)
            finally:
                shutdown(executor)
                kill_orphans(directory / GROUPS)
            if not broken:
                return summary
            # A worker died (killed, out of memory): every game that came back is stored;
            # a new pool plays the batches that did not.
    raise TournamentError(
        f"worker processes kept dying; {len(run.pending)} batches were not played"
    )


@dataclass
class _Run:
    """One run's state across the pools it may need: what is stored, what is still to play,
    which programs have started."""

    store: TournamentStore
    tournament_id: str
    config: TournamentConfig
    length: int
    stored: dict[int, list[Record]]
    summary: RunSummary
    progress: Progress | None
    keep_going: bool
    pending: list[list[GameJob]] = field(default_factory=list)
    started: set[str] = field(default_factory=set)

    def attempt(self, executor: Executor, out: IO[str], told: list[int]) -> bool:
        """Play the pending batches on `executor`; whether its pool broke (the batches that
        did not come back stay pending)."""
        futures: dict[Future[PlayedBatch], list[GameJob]] = {}
        waiting: set[Future[PlayedBatch]] = set()
        folder = str(self.store.directory.resolve())

        def submit(batch: list[GameJob], keep_going: bool) -> None:
            earlier = {n: self.stored[n] for n in (job.number for job in batch) if n in self.stored}
            future = executor.submit(
                play_batch, self.config, batch, self.tournament_id, folder, earlier, keep_going
            )
            futures[future] = batch
            waiting.add(future)

        for batch in self.pending:
            submit(batch, self.keep_going)
        broken = False
        while waiting:
            done, _ = wait(waiting, timeout=POLL, return_when=FIRST_COMPLETED)
            if told:  # store whatever has finished, then stop
                done = {future for future in waiting if future.done()}
            waiting -= done
            for future in done:
                batch = futures[future]
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    continue
                except Exception as error:
                    # Stop nothing else: the other batches' games are still played.
                    self.summary.failed.append(f"{type(error).__name__}: {error}")
                    self.pending.remove(batch)
                    continue
                self._keep(out, result)
                self.pending.remove(batch)
                if result.cannot_start is not None:
                    bot, message = result.cannot_start
                    if bot not in self.started:
                        _stop_now(executor, futures)
                        raise TournamentError(message)
                    # It did start in another batch: play the rest of this one regardless.
                    rest = [job for job in batch if not self._finished(job)]
                    if rest:
                        self.pending.append(rest)
                        submit(rest, keep_going=True)
            if told:
                _stop_now(executor, futures)
                finished = self.summary.already + self.summary.played
                raise TournamentStopped(self.store.directory, finished, told[0])
        return broken

    def _finished(self, job: GameJob) -> bool:
        return job_finished(self.stored.get(job.number, []), self.length)

    def _keep(self, out: IO[str], result: PlayedBatch) -> None:
        _store(self.store, out, result.games, self.summary)
        for number, new in _by_number([game.record for game in result.games]).items():
            self.stored.setdefault(number, []).extend(new)
            self.summary.played += 1
            if self.progress is not None:
                self.progress.advance(new)
        self.started |= result.started


def sprt_status(info: TournamentFile, stored: dict[int, list[Record]]) -> SprtState | None:
    """Where the SPRT of a tournament stands over its stored games (None: it runs none)."""
    game, ruleset = tournament_ruleset(info.config)
    tracker = _sprt_tracker(info.config, info.jobs(), game.match_length(ruleset), stored)
    return None if tracker is None else tracker.state()


def _sprt_tracker(
    config: TournamentConfig,
    jobs: list[GameJob],
    length: int,
    stored: dict[int, list[Record]],
) -> SprtTracker | None:
    spec = config.sprt_spec()
    if spec is None:
        return None
    tracker = SprtTracker(spec, jobs, length)
    tracker.update(stored)
    return tracker


def _waves(jobs: list[GameJob], sequential: bool) -> list[list[list[GameJob]]]:
    """The batches to play, in waves: one wave of everything, or for an SPRT the waves of its
    schedule (tournament/sequential.py), each played whole before the test is looked at."""
    if not sequential:
        return [list(batches(jobs))]
    by_wave: dict[int, list[GameJob]] = {}
    for job in jobs:
        by_wave.setdefault(wave_of(job), []).append(job)
    return [list(batches(by_wave[wave])) for wave in sorted(by_wave)]


def _stop_now(executor: Executor, futures: dict[Future[PlayedBatch], list[GameJob]]) -> None:
    for future in futures:
        future.cancel()
    stop_at_once(executor)


@contextmanager
def _stop_signals() -> Iterator[list[int]]:
    """While the block runs, SIGINT and SIGTERM are noted (in the yielded list) for the
    runner to stop at its next look, storing what has finished; a second one acts at once."""
    told: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield told
        return

    def note(number: int, frame: FrameType | None) -> None:
        told.append(number)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    previous = {number: signal.signal(number, note) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield told
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _by_number(records: list[Record]) -> dict[int, list[Record]]:
    groups: dict[int, list[Record]] = {}
    for record in records:
        groups.setdefault(record.event.game_number or 0, []).append(record)
    return groups


def _store(
    store: TournamentStore, out: IO[str], played: list[PlayedGame], summary: RunSummary
) -> None:
    """Append the games of a batch together (one sync), saying what is wrong with any that
    the worker found invalid, at its place in the file."""
    refused = store.append(out, [game.record for game in played])
    summary.refused.extend(describe_key(key) for key in map(game_key, refused) if key)
    kept = [game for game in played if all(game.record is not r for r in refused)]
    for number, game in enumerate(kept, start=summary.stored + 1):
        if not game.valid:
            report = validate_record(game.record, str(store.games_path), number)
            summary.invalid.extend(d.one_line() for d in report.diagnostics)
    summary.stored += len(kept)
    summary.crashes += sum(
        1
        for game in kept
        if game.record.result is not None and game.record.result.reason == Reason.CRASH
    )
