"""Running a tournament: schedule, execute in batches, validate and store every game at once."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from referee.bots.registry import make_bot
from referee.records.keys import describe_key, game_key
from referee.records.model import Record
from referee.tournament.config import TournamentConfig
from referee.tournament.executors import ExecutorFactory, process_pool, shutdown
from referee.tournament.play import match_score
from referee.tournament.schedule import GameJob
from referee.tournament.store import TournamentFile, TournamentStore
from referee.tournament.worker import PlayedGame, play_batch, tournament_ruleset
from referee.validator.check import validate_record

PAIRS_PER_BATCH = 4
RESTARTS = 3


class TournamentError(RuntimeError):
    """A tournament that could not play all its games; what was played is stored."""


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


def job_finished(records: list[Record], match_length: int) -> bool:
    """A game is finished once stored; a match once a player has reached its length."""
    if match_length == 1:
        return bool(records)
    score, _ = match_score(records)
    return max(score) >= match_length


def run_tournament(
    directory: Path,
    config: TournamentConfig | None = None,
    concurrency: int = 1,
    executor_factory: ExecutorFactory | None = None,
    progress: Progress | None = None,
) -> RunSummary:
    """Play every missing game of the tournament in `directory` (created from `config`).

    The runner holds the folder's lock throughout: a second runner on the same folder is
    refused at once (FolderBusy) instead of playing the same games again."""
    store = TournamentStore(directory)
    if config is not None:
        check_participants(config)
    elif not store.exists():
        store.load()  # says that there is no tournament here, before any lock file is made
    with store.lock():
        return _run_locked(store, config, concurrency, executor_factory, progress)


def _run_locked(
    store: TournamentStore,
    config: TournamentConfig | None,
    concurrency: int,
    executor_factory: ExecutorFactory | None,
    progress: Progress | None,
) -> RunSummary:
    directory = store.directory
    info: TournamentFile = store.create(config) if config is not None else store.load()
    game, ruleset = tournament_ruleset(info.config)
    length = game.match_length(ruleset)
    stored = store.by_job()
    scheduled = info.jobs()
    jobs = [job for job in scheduled if not job_finished(stored.get(job.number, []), length)]
    total = len(scheduled)
    summary = RunSummary(directory, total, total - len(jobs))
    if progress is not None:
        progress.start(summary.total, summary.already)
    if not jobs:
        return summary

    pending = list(batches(jobs))
    log_dir = str(directory.resolve() / "logs")
    with store.open_for_append() as out:
        for _attempt in range(RESTARTS + 1):
            executor = (executor_factory or process_pool(concurrency))()
            broken = False
            try:
                futures: dict[Future[list[PlayedGame]], list[GameJob]] = {}
                for batch in pending:
                    earlier = {
                        job.number: stored[job.number] for job in batch if job.number in stored
                    }
                    future = executor.submit(
                        play_batch, info.config, batch, info.id, log_dir, earlier
                    )
                    futures[future] = batch
                for future in as_completed(futures):
                    try:
                        played = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    except Exception as error:
                        # Stop nothing else: the other batches' games are still played and kept.
                        summary.failed.append(f"{type(error).__name__}: {error}")
                        pending.remove(futures[future])
                        continue
                    _store(store, out, played, summary)
                    for number, new in _by_number([game.record for game in played]).items():
                        stored.setdefault(number, []).extend(new)
                        summary.played += 1
                        if progress is not None:
                            progress.advance(new)
                    pending.remove(futures[future])
            finally:
                shutdown(executor)
            if not broken:
                return summary
            # A worker died (killed, out of memory): every game that came back is stored;
            # a new pool plays the batches that did not.
    raise TournamentError(f"worker processes kept dying; {len(pending)} batches were not played")


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
