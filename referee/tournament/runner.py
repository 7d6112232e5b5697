"""Running a tournament: schedule, execute in batches, store every game at once and forget it."""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain, groupby
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Protocol

from referee.bounds import MAX_JOBS
from referee.errors import RefereeError
from referee.path_names import BOTS_FOLDER, SPOOL_FOLDER
from referee.players.process import kill_orphans
from referee.players.registry import make_bot
from referee.records.io import parse_record_json
from referee.records.keys import GameKey, describe_key
from referee.records.model import Reason
from referee.tournament.config import TournamentConfig, with_environment, without_secrets
from referee.tournament.executors import ExecutorFactory, process_pool, shutdown, stop_at_once
from referee.tournament.luck import LuckBook, luck_reference_spec
from referee.tournament.play import Scored, job_finished
from referee.tournament.schedule import GameJob
from referee.tournament.sequential import SprtTracker, wave_of
from referee.tournament.store import Damaged, TournamentFile, TournamentStore
from referee.tournament.worker import (
    BatchOptions,
    PlayedBatch,
    PlayedGame,
    Verify,
    play_batch,
    read_spool,
)
from referee.validator.check import validate_record

if TYPE_CHECKING:
    from referee.ratings.sprt import SprtState

PAIRS_PER_BATCH = 4
"""The size of the first batches, before the runner knows how long a game takes."""
BATCH_SECONDS = 0.5
"""How long a batch should take a worker: long enough that handing it over and storing it
(a round trip through the pool, a sync) costs little beside its games, short enough that a
killed run loses seconds at most and the progress moves smoothly."""
MAX_PAIRS_PER_BATCH = 128
RESTARTS = 3

IN_FLIGHT_PER_WORKER = 2
"""Batches sent ahead per worker: one playing and one waiting, so that no worker idles while
the runner stores a batch. The rest of the schedule is not even listed yet."""

DEFAULT_VERIFY: Verify = "sample"
"""Replaying every game through the validator cost a quarter of a random-bot tournament's
time, and finds only faults of the referee itself (the engine that played the game checked
every move): one game in 16 finds such a fault as surely, at a sixteenth of the cost
(docs/tournaments.md)."""

POLL = 0.2
"""Seconds between the runner's looks at whether it was told to stop."""


class TournamentError(RefereeError, RuntimeError):
    """A tournament that could not play all its games; what was played is stored."""

    code = "tournament"


class TournamentStopped(Exception):
    """SIGINT or SIGTERM stopped the run; every finished game is stored."""

    def __init__(self, *, directory: Path, stored: int, signal_number: int) -> None:
        super().__init__(
            f"stopped: {stored} games stored; continue with `referee tournament resume {directory}`"
        )
        self.signal = signal_number


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
    """Games of this run lost by `crash` (a program that failed or could not start, a built-in
    bot that raised)."""
    crashed: dict[str, str] = field(default_factory=dict)
    """Each bot that lost games of this run by crash, with why it lost the first (the result's
    detail, without its seat)."""
    sprt: SprtState | None = None
    """Where the SPRT stands after the run, for a tournament that runs one."""
    refused: list[str] = field(default_factory=list)
    """Games played again although stored already: the store kept the first copy only."""
    warnings: list[str] = field(default_factory=list)
    """Programs' logs that could not be written (their games were played), each once."""
    damaged: Damaged = field(default_factory=Damaged)
    """The damaged lines of games.jsonl: their games are not played again when their key can
    be read (`TournamentStore.scan`)."""


class Progress(Protocol):
    """Told how many games (or matches) there are, then of each one finished (the games of a
    match together), with its players' names and result; told again, of fewer, when an SPRT
    decides."""

    def start(self, total: int, already: int) -> None: ...

    def advance(self, games: list[PlayedGame]) -> None: ...


@dataclass
class BatchSize:
    """How many pairs the next batch holds: PAIRS_PER_BATCH at first, then as many as a
    worker plays in about BATCH_SECONDS, by the batches that came back. A random game takes
    about a millisecond, and a batch of a few such games would cost more to hand over and
    store than to play; a game of engines taking seconds a move stays in small batches.

    Towards the end the batches shrink (a share of the jobs left for each worker, as in
    guided self-scheduling), so that the workers finish together instead of one playing a
    last large batch alone."""

    left: int
    """Jobs not yet sent (from the start of the run)."""
    workers: int
    timed: int = PAIRS_PER_BATCH
    """The size by time alone."""

    @property
    def pairs(self) -> int:
        share = -(-self.left // (2 * TAIL_SHARES * max(1, self.workers)))
        return max(1, min(self.timed, share))

    def sent(self, jobs: int) -> None:
        self.left -= jobs

    def observe(self, pairs: int, seconds: float) -> None:
        """Note that a batch of `pairs` pairs took a worker `seconds` (wall time)."""
        if pairs <= 0:
            return
        wanted = MAX_PAIRS_PER_BATCH if seconds <= 0 else int(BATCH_SECONDS * pairs / seconds)
        # At most twice the size of the batch measured: one quick batch (forfeits) is no
        # guide to the games after it.
        self.timed = max(PAIRS_PER_BATCH, min(wanted, 2 * pairs, MAX_PAIRS_PER_BATCH))


TAIL_SHARES = 2
"""A batch holds at most the pairs left over TAIL_SHARES times the number of workers."""


def batches(jobs: Iterable[GameJob], size: BatchSize) -> Iterator[list[GameJob]]:
    """Whole seat-swapped pairs, `size.pairs` at a time (as it is when a batch starts): a
    killed run loses only the batches in flight. The jobs of a pair come one after the other,
    as the schedule lists them."""
    batch: list[GameJob] = []
    pairs: set[int] = set()
    for job in jobs:
        if job.pair not in pairs and len(pairs) >= size.pairs:
            size.sent(len(batch))
            yield batch
            batch, pairs = [], set()
        pairs.add(job.pair)
        batch.append(job)
    if batch:
        size.sent(len(batch))
        yield batch


def check_participants(config: TournamentConfig) -> None:
    """Fail before anything is written when the game, variant or a built-in bot is unknown."""
    config.rules()
    for entry in config.bots:
        if entry.spec is not None:
            make_bot(config.game, entry.spec).close()


@dataclass(frozen=True)
class RunOptions:
    """How a run plays: on how many workers and which executor, and the batches' options."""

    concurrency: int = 1
    executor_factory: ExecutorFactory | None = None
    keep_going: bool = False
    verify: Verify = DEFAULT_VERIFY


def run_tournament(
    directory: Path,
    config: TournamentConfig | None = None,
    *,
    concurrency: int = 1,
    executor_factory: ExecutorFactory | None = None,
    progress: Progress | None = None,
    keep_going: bool = False,
    verify: Verify = DEFAULT_VERIFY,
) -> RunSummary:
    """Play every missing game of the tournament in `directory` (created from `config`).

    Unless `keep_going`, a game in which a program could not start (before it has started in
    this run) is not stored but played again, and the program's second such game stops the
    run at once (TournamentError), noted for `tournament status`. SIGINT and SIGTERM stop it
    within seconds (TournamentStopped); every game finished by then is stored (the workers
    spool each game as it ends), and no bot is left running.
    The runner holds the folder's lock throughout: a second runner on the same folder is
    refused at once (FolderBusy) instead of playing the same games again. `verify` says which
    games the workers replay through the validator (`--verify`).

    The runner writes each game as it comes back and forgets it: it holds the batches in
    flight, a byte per scheduled game, and the results that a match or the SPRT still needs.
    """
    store = TournamentStore(directory)
    if config is not None:
        check_participants(config)
    elif not store.exists():
        store.load()  # says that there is no tournament here, before any lock file is made
    options = RunOptions(concurrency, executor_factory, keep_going, verify)
    with store.lock():
        return _run_locked(store, config, options, progress)


class Ledger:
    """What the runner keeps of the stored games, in memory flat in their number: a byte per
    scheduled job (finished or not), and the results of the games that are still looked at
    (a match not finished; with an SPRT, the pairs it has not counted)."""

    def __init__(self, size: int, match_length: int, keep_finished: bool) -> None:
        self.finished = bytearray(size)
        self.count = 0
        """Jobs of the schedule finished."""
        self.results: dict[int, list[Scored | None]] = {}
        self._match_length = match_length
        self._keep_finished = keep_finished

    def add(self, number: int, ending: Scored | None) -> bool:
        """Note a stored game of job `number`; whether it finished the job."""
        if number >= len(self.finished) or self.finished[number]:
            return False  # beyond the schedule, or a game after its match ended
        results = self.results.setdefault(number, [])
        results.append(ending)
        if not job_finished(results, self._match_length):
            return False
        self.finished[number] = 1
        self.count += 1
        if not self._keep_finished:
            del self.results[number]
        return True

    def done(self, job: GameJob) -> bool:
        return bool(self.finished[job.number])

    def forget(self, jobs: Iterable[GameJob]) -> None:
        for job in jobs:
            self.results.pop(job.number, None)


def _run_locked(
    store: TournamentStore,
    config: TournamentConfig | None,
    options: RunOptions,
    progress: Progress | None,
) -> RunSummary:
    directory = store.directory
    kill_orphans(directory / BOTS_FOLDER)  # what a run killed with its workers left running
    # tournament.json keeps the names of the bots' env, not their values (secrets).
    info: TournamentFile = (
        store.create(without_secrets(config)) if config is not None else store.load()
    )
    store.note_failed_start(None)
    recovered = _recover_spools(store)
    game, ruleset = info.config.rules()
    length = game.match_length(ruleset)
    spec = info.config.sprt
    ledger = Ledger(info.size(), length, keep_finished=spec is not None)
    damaged = Damaged()
    for stored in store.scan():
        if stored.damage is not None:
            damaged.add(stored.damage)
        if stored.key is not None:
            ledger.add(stored.key[2], stored.ending)
    luck = None
    if info.config.luck_adjusted is not None:
        # Checked before a game is played (a hand-edited configuration), and made here so
        # that forked workers start with the reference's tables.
        luck_reference_spec(info.config, info.config.luck_adjusted)
        luck = LuckBook(directory, info.id, info.config.luck_adjusted).load(repair=True)
        luck.complete(store.games_path)
    adjusted = None if luck is None else luck.adjusted
    tracker = None if spec is None else SprtTracker(spec, info.pairs(), length, adjusted)
    if tracker is not None:
        _look(tracker, ledger)

    def wanted(job: GameJob) -> bool:
        return not ledger.done(job)

    total = info.size()
    # Once the SPRT has decided, nothing after its wave is played.
    todo: Iterator[GameJob] = filter(
        wanted, info.iter_jobs() if tracker is None else tracker.jobs()
    )
    left = total - ledger.count
    if tracker is not None and tracker.decided_at is not None:
        left = sum(1 for _ in filter(wanted, tracker.jobs()))
    summary = RunSummary(directory, total, ledger.count, invalid=recovered.invalid)
    summary.damaged = damaged
    if tracker is not None:
        summary.sprt = tracker.state()
    if progress is not None:
        progress.start(ledger.count + left, ledger.count)
    first = next(todo, None)
    if first is None:
        return summary
    todo = chain([first], todo)
    workers = min(options.concurrency, MAX_JOBS)
    if left <= 2 * workers:
        # Few games left: a worker for each pair of them at most (a batch is whole pairs),
        # not processes that would have nothing to play.
        listed = list(todo)
        workers = min(workers, len({job.pair for job in listed}))
        todo = iter(listed)
    # An SPRT plays its schedule wave by wave, looking at the test after each.
    size = BatchSize(left, workers)
    waves: Iterator[Iterator[list[GameJob]]] = (
        iter([batches(todo, size)])
        if tracker is None
        else (batches(wave, size) for _, wave in groupby(todo, key=wave_of))
    )

    playing = config if config is not None else with_environment(info.config)
    run = _Run(
        store=store,
        tournament_id=info.id,
        config=playing,
        ledger=ledger,
        luck=luck,
        summary=summary,
        options=options,
        progress=progress,
        workers=workers,
        size=size,
    )
    run.source = next(waves)
    with store.open_for_append() as out, _stop_signals() as told:
        for _attempt in range(RESTARTS + 1):
            executor = (options.executor_factory or process_pool(workers))()
            try:
                while True:
                    broken = run.attempt(executor, out, told)
                    if broken:
                        break
                    if tracker is not None:
                        _look(tracker, ledger)
                        summary.sprt = tracker.state()
                        if tracker.decided_at is not None:
                            if progress is not None:  # the bar ends here, full
                                progress.start(ledger.count, ledger.count)
                            break
                    wave = next(waves, None)
                    if wave is None:
                        break
                    run.source = wave
            finally:
                shutdown(executor)
                kill_orphans(directory / BOTS_FOLDER)
            if not broken:
                return summary
            # A worker died (killed, out of memory): every game that came back is stored;
            # a new pool plays the batches that did not.
    raise TournamentError(f"worker processes kept dying; {len(run.retry)} batches were not played")


def _recover_spools(store: TournamentStore) -> RunSummary:
    """Store the games that the batches of a runner killed outright had finished (their
    spool files), but those stored already; what is wrong with any of them is in `invalid`."""
    spools = store.directory / SPOOL_FOLDER
    spools.mkdir(exist_ok=True)
    left = sorted(spools.glob("*.jsonl"))
    recovered = RunSummary(store.directory, 0, 0)
    if left:
        keyed = [game for spool in left for game in read_spool(spool)]
        with store.open_for_append() as out:
            played = [game for _, game in keyed]
            _store(store, out, played, [key for key, _ in keyed], recovered)
        for spool in left:
            spool.unlink()
    return recovered


def _look(tracker: SprtTracker, ledger: Ledger) -> None:
    """Advance the test over the stored games; the results of the pairs it counted are
    dropped (it never looks at them again)."""
    before = tracker.counted
    tracker.update(ledger.results)
    for pair in range(before, tracker.counted):
        ledger.forget(tracker.pairs[pair])


@dataclass(kw_only=True)
class _Run:
    """One run's state across the pools it may need: what is stored, what is still to play,
    which programs have started."""

    store: TournamentStore
    tournament_id: str
    config: TournamentConfig
    ledger: Ledger
    luck: LuckBook | None
    """A luck-adjusted test's analyses, kept as games are stored."""
    summary: RunSummary
    options: RunOptions
    progress: Progress | None
    workers: int
    """The processes the run starts: `options.concurrency` capped by the pairs left."""
    size: BatchSize
    """The size of the batches the source makes, set by those that came back."""
    source: Iterator[list[GameJob]] = field(default_factory=lambda: iter(()))
    """The batches not sent yet, made as they are sent."""
    retry: list[list[GameJob]] = field(default_factory=list)
    """Batches sent to a pool that broke before they came back: sent first to the next (less
    the games they finished, stored from their spool files)."""
    started: set[str] = field(default_factory=set)
    unstarted: Counter[str] = field(default_factory=Counter)
    """Games held back because a program that has not started in this run could not start."""
    sent: int = 0
    """Batches sent so far: each names its spool file."""

    def attempt(self, executor: Executor, out: IO[bytes], told: list[int]) -> bool:
        """Play the batches to retry and those of the source on `executor`, a few in flight at
        a time; whether its pool broke (the batches that did not come back are to retry)."""
        futures: dict[Future[PlayedBatch], tuple[list[GameJob], Path]] = {}
        folder = str(self.store.directory.resolve())
        limit = IN_FLIGHT_PER_WORKER * max(1, self.workers)

        def submit(batch: list[GameJob], keep_going: bool) -> None:
            results = self.ledger.results
            earlier = {job.number: results[job.number] for job in batch if job.number in results}
            self.sent += 1
            spool = Path(folder) / SPOOL_FOLDER / f"{os.getpid()}-{self.sent}.jsonl"
            spool.touch()  # the worker writes to it only while it is there
            options = BatchOptions(self.tournament_id, folder, keep_going, self.options.verify)
            future = executor.submit(play_batch, self.config, batch, options, earlier, str(spool))
            futures[future] = (batch, spool)

        def fill() -> None:
            while len(futures) < limit:
                batch = self.retry.pop(0) if self.retry else next(self.source, None)
                if batch is None:
                    return
                batch = [job for job in batch if not self.ledger.done(job)]
                if batch:
                    submit(batch, self.options.keep_going)

        def abandon() -> None:
            """Stop the batches in flight, storing the games they finished."""
            _stop_now(executor, futures)
            self._recover(out, [spool for _, spool in futures.values()])
            futures.clear()

        broken = False
        fill()
        while futures:
            wait(futures, timeout=POLL, return_when=FIRST_COMPLETED)
            # Every batch back by now is stored with one sync (a group commit): a sync can
            # take as long as a batch of short games takes to play.
            done = {future for future in futures if future.done()}
            back: list[tuple[list[GameJob], PlayedBatch, Path]] = []
            lost: list[Path] = []
            for future in done:
                batch, spool = futures.pop(future)
                try:
                    back.append((batch, future.result(), spool))
                except BrokenProcessPool:
                    broken = True
                    self.retry.append(batch)
                    lost.append(spool)
                except Exception as error:
                    # Stop nothing else: the other batches' games are still played.
                    self.summary.failed.append(f"{type(error).__name__}: {error}")
                    lost.append(spool)
            self._keep(out, back)
            self._recover(out, lost)
            for batch, result, _ in back:
                rest = [job for job in batch if not self.ledger.done(job)]
                if not result.unstarted or not rest:
                    continue
                # Games held back because a program could not start: played again, at once
                # to the end when the program has started in this run (a failure is then
                # the program's and recorded), else once more, and a second failure stops
                # the run with nothing of the program's failed starts stored.
                failing = [entry for entry in result.unstarted if entry[0] not in self.started]
                for bot, message in failing:
                    self.unstarted[bot] += 1
                    if self.unstarted[bot] >= 2:
                        abandon()
                        self.store.note_failed_start(message)
                        raise TournamentError(message)
                submit(rest, keep_going=not failing)
            if told:
                abandon()
                finished = self.summary.already + self.summary.played
                raise TournamentStopped(
                    directory=self.store.directory, stored=finished, signal_number=told[0]
                )
            if not broken:
                fill()
        return broken

    def _keep(self, out: IO[bytes], back: list[tuple[list[GameJob], PlayedBatch, Path]]) -> None:
        """Store the games of the batches that came back, then count them."""
        keyed: list[tuple[GameKey, PlayedGame]] = []
        for batch, result, _ in back:
            pairs = {job.number: job.pair for job in batch}
            keyed += (
                ((self.tournament_id, pairs[game.number], game.number, game.match_game), game)
                for game in result.games
            )
        self._count(out, keyed)
        for batch, result, spool in back:
            spool.unlink(missing_ok=True)  # its games are stored
            self.started |= result.started
            for warning in result.warnings:  # each worker tells a failing log once
                if warning not in self.summary.warnings:
                    self.summary.warnings.append(warning)
            self.size.observe(len({job.pair for job in batch}), result.seconds)

    def _recover(self, out: IO[bytes], spools: list[Path]) -> None:
        """Store the games that batches which did not come back wrote to their spool files."""
        self._count(out, [game for spool in spools for game in read_spool(spool)])
        for spool in spools:
            spool.unlink(missing_ok=True)

    def _count(self, out: IO[bytes], keyed: list[tuple[GameKey, PlayedGame]]) -> None:
        """Store games with their keys, note them in the ledger and tell the progress."""
        if not keyed:
            return
        played = [game for _, game in keyed]
        kept = _store(self.store, out, played, [key for key, _ in keyed], self.summary)
        if self.luck is not None:
            self.luck.add(kept)
        by_number: dict[int, list[PlayedGame]] = {}
        finished = set()
        for game in played:
            if self.ledger.add(game.number, game.ending):
                finished.add(game.number)
            by_number.setdefault(game.number, []).append(game)
        # A match counts once finished (a stopped batch may have played part of it).
        for number, games in by_number.items():
            if number in finished:
                self.summary.played += 1
                if self.progress is not None:
                    self.progress.advance(games)


def _lines_before(path: Path, end: int) -> tuple[int, int]:
    """The lines of `path` before byte `end`, and how many of them hold a record (are not
    blank): a game appended at `end` is on the line after, numbered as `referee validate`
    numbers it, however many games earlier runs stored."""
    lines = records = position = 0
    with path.open("rb") as stream:
        for raw in stream:
            if position >= end:
                break
            position += len(raw)
            lines += 1
            records += bool(raw.strip())
    return lines, records


def _stop_now(executor: Executor, futures: Iterable[Future[PlayedBatch]]) -> None:
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


def _store(
    store: TournamentStore,
    out: IO[bytes],
    played: list[PlayedGame],
    keys: list[GameKey],
    summary: RunSummary,
) -> list[PlayedGame]:
    """Append the games of a batch together (one sync), saying what is wrong with any that
    the worker found invalid, at its place in the file; the games stored (not those stored
    before)."""
    lines = list(zip(keys, (game.line for game in played), strict=True))
    end = out.tell()  # where the batch's first line goes: the file's end
    refused = set(store.append_lines(out, lines))
    summary.refused.extend(describe_key(keys[index]) for index in sorted(refused))
    kept = [game for index, game in enumerate(played) if index not in refused]
    invalid = [(index, game) for index, game in enumerate(kept) if game.valid is False]
    if invalid:  # a fault of referee's own: rare, so the file is counted only then
        before, records = _lines_before(store.games_path, end)
        for index, game in invalid:
            record = parse_record_json(game.line)
            report = validate_record(
                record, str(store.games_path), records + index + 1, before + index + 1
            )
            summary.invalid.extend(d.one_line() for d in report.diagnostics)
    summary.stored += len(kept)
    for game in kept:
        ending = game.ending
        if ending is None or ending.reason != Reason.CRASH:
            continue
        summary.crashes += 1
        loser = game.players[1 - ending.winner] if ending.winner is not None else None
        if loser is not None and loser not in summary.crashed:
            result = parse_record_json(game.line).result
            detail = result.detail if result is not None else None
            summary.crashed[loser] = (detail or "").partition(": ")[2]
    return kept
