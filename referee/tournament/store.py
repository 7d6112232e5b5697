"""A tournament folder: tournament.json (config and seed), games.jsonl (finished games) and
.lock (held by the one runner playing the folder)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, ValidationError

from referee.files import cannot_write, write_atomically
from referee.path_names import (
    FAILED_START_FILE,
    GAMES_FILE,
    LOCK_FILE,
    REJECTED_FILE,
    REJECTED_NOTES,
    TOURNAMENT_FILE,
)
from referee.records.io import RecordError, check_nesting
from referee.records.keys import GameKey, game_key, salvage
from referee.records.scan import scan_jsonl
from referee.tournament.config import (
    ConfigError,
    TournamentConfig,
    build_config,
    canonical_sprt,
    first_problem,
    game_fields,
    same_games,
)
from referee.tournament.play import Ending
from referee.tournament.schedule import (
    GameJob,
    Layout,
    Pairs,
    iter_schedule,
    schedule_pairs,
    schedule_size,
)
from referee.wording import plural

if TYPE_CHECKING:
    from referee.validator.diagnostics import Diagnostic


class FolderBusy(ConfigError):
    """Another process plays the tournament folder."""

    code = "busy"


class ConfigDigest(BaseModel):
    """SHA-256 digests of the configuration as written, to find a hand edit: of the whole
    (canonical JSON), and of each value by its path (`bots[1].spec`), to name the change."""

    config: str
    fields: dict[str, str]


def tournament_id(config: TournamentConfig) -> str:
    """The id every record of the tournament carries: the game and a short digest of the
    configuration (seed included), so that the same configuration gives the same files;
    the wall-clock start is only in tournament.json (`created`)."""
    digest = hashlib.sha256(config.model_dump_json().encode("utf-8")).hexdigest()
    return f"{config.game}-{digest[:12]}"


class TournamentFile(BaseModel):
    """The contents of tournament.json."""

    format: str = "referee-tournament"
    version: int = 1
    id: str
    created: str
    config: TournamentConfig
    schedule: Layout = "by-pairing"
    """How games are numbered (files written before `extend` existed have no such field)."""
    digest: ConfigDigest | None = None
    """None in files written before digests existed: those are not checked."""
    history: list[str] = []
    """What `referee tournament extend` changed, and when."""

    def pairs(self) -> Pairs:
        return schedule_pairs(self.config, self.schedule)

    def iter_jobs(self) -> Iterator[GameJob]:
        return iter_schedule(self.config, self.schedule)

    def size(self) -> int:
        """How many jobs (games, or matches) the schedule holds."""
        return schedule_size(self.config)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha256(value: Any) -> str:
    return hashlib.sha256(_canonical(value).encode("utf-8", "surrogatepass")).hexdigest()


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def config_digest(config: dict[str, Any]) -> ConfigDigest:
    """The digests of a configuration as JSON data."""
    fields = {path: _sha256(value)[:16] for path, value in _leaves(config)}
    return ConfigDigest(config=_sha256(config), fields=fields)


def changed_fields(digest: ConfigDigest, config: dict[str, Any]) -> list[str]:
    """The paths whose value differs from the digests, or that were added or removed."""
    now = config_digest(config).fields
    return [
        path
        for path in sorted(now.keys() | digest.fields.keys())
        if now.get(path) != digest.fields.get(path)
    ]


def differences(stored: Any, given: Any, shown: int = 3) -> str:
    """The fields whose values differ, each with both values (`seed: "1" in the folder, "2"
    given`), the first `shown` of them and how many more."""
    changed = [
        f"{path}: {before} in the folder, {after} given"
        for path, before, after in _differing(stored, given, "")
    ]
    more = f"; and {len(changed) - shown} more" if changed[shown:] else ""
    return "; ".join(changed[:shown]) + more


def _differing(before: Any, after: Any, path: str) -> Iterator[tuple[str, str, str]]:
    """The innermost fields and list items that differ, with both values as JSON (`nothing`
    for a field or item on one side only)."""
    if isinstance(before, dict) and isinstance(after, dict):
        places = [
            (f"{path}.{key}" if path else key, before.get(key, _NOTHING), after.get(key, _NOTHING))
            for key in sorted(before | after)
        ]
    elif isinstance(before, list) and isinstance(after, list):
        places = [
            (
                f"{path}[{index}]",
                before[index] if index < len(before) else _NOTHING,
                after[index] if index < len(after) else _NOTHING,
            )
            for index in range(max(len(before), len(after)))
        ]
    else:
        yield path, _shown(before), _shown(after)
        return
    for inner, there, here in places:
        if there is _NOTHING or here is _NOTHING:
            yield inner, _shown(there), _shown(here)
        elif there != here:
            yield from _differing(there, here, inner)


_NOTHING = object()
"""A field or list item on one side only."""


def _shown(value: Any) -> str:
    return "nothing" if value is _NOTHING else _canonical(value)


class NumberSet:
    """A set of game or job numbers in memory flat in how many it holds: a bit per number
    while the numbers are about as dense as a schedule's (a million in 125 kB), a plain set
    for those far beyond what the numbers held so far reach (a line edited to game number
    10**15 must not ask for a bit array of a hundred terabytes)."""

    def __init__(self) -> None:
        self._bits = bytearray()
        self._far: set[int] = set()
        self._count = 0

    def add(self, number: int) -> bool:
        """Note the number; False when it was there already."""
        if self._far and number in self._far:
            return False
        index, bit = divmod(number, 8)
        if index >= len(self._bits):
            if index >= self._count // 4 + 4096:
                self._far.add(number)
                self._count += 1
                return True
            self._bits.extend(bytes(index + 1 - len(self._bits)))
        if self._bits[index] >> bit & 1:
            return False
        self._bits[index] |= 1 << bit
        self._count += 1
        return True


class StoredKeys:
    """The keys of the stored games, so that a game is never stored twice, in memory flat in
    their number: a bit per game number for a tournament's single games numbered as its
    schedule numbers them (game n in pair n // 2: a million games in 125 kB), a set for the
    games of matches and any other key."""

    def __init__(self) -> None:
        self._numbers: dict[str, NumberSet] = {}
        self._other: set[GameKey] = set()

    def add(self, key: GameKey) -> bool:
        """Note the key; False when it was there already."""
        tournament, pairing, number, match_game = key
        if match_game or pairing != number // 2:
            if key in self._other:
                return False
            self._other.add(key)
            return True
        numbers = self._numbers.get(tournament)
        if numbers is None:
            numbers = self._numbers[tournament] = NumberSet()
        return numbers.add(number)


class DamagedLine(NamedTuple):
    """A complete line of games.jsonl that is not a valid record: where, and what is wrong."""

    line: int
    reason: str


class StoredGame(NamedTuple):
    """What a runner reads of a stored game: its key (None: no tournament game) and result,
    and for a damaged line what is wrong with it (its key and result then read as far as they
    can be, `keys.salvage`)."""

    key: GameKey | None
    ending: Ending | None
    damage: DamagedLine | None = None


@dataclass
class Damaged:
    """The damaged lines of games.jsonl found by a scan: how many, and the first few, to name."""

    count: int = 0
    shown: list[DamagedLine] = field(default_factory=list)

    SHOWN = 10

    def add(self, damage: DamagedLine) -> None:
        self.count += 1
        if len(self.shown) < self.SHOWN:
            self.shown.append(damage)


def _reason(error: RecordError) -> str:
    """What is wrong with a line: the error's message, after its place when it does not
    already start with it."""
    pointer, message = error.pointer, error.message
    return message if not pointer or message.startswith(pointer) else f"{pointer}: {message}"


def _reason_of(diagnostic: Diagnostic) -> str:
    """A validator's finding as a line's reason: the turn, if any, then the message."""
    turn = f"turn {diagnostic.turn}: " if diagnostic.turn is not None else ""
    return f"{turn}[{diagnostic.code}] {diagnostic.message}"


def _salvaged_ending(result: dict[str, Any]) -> Ending | None:
    winner, points, reason = (result.get(name) for name in ("winner", "points", "reason"))
    if winner not in (None, 0, 1) or type(points) is not int or not isinstance(reason, str):
        return None
    return Ending(winner, points, reason)


@dataclass
class StoredGames:
    """The stored games of a tournament folder, counted (`TournamentStore.tally`)."""

    games: int = 0
    """Games stored, each once."""
    jobs: int = 0
    """Jobs of the schedule (a game, or the games of a match) with a game stored."""
    reasons: Counter[str] = field(default_factory=Counter)
    """How the games ended: the reason of each result."""
    repeats: dict[GameKey, int] = field(default_factory=dict)
    """The games stored more than once, with how many times each (in the order their
    second copies are stored)."""
    results: dict[int, list[Ending | None]] = field(default_factory=dict)
    """With `tally(results=True)`: the endings of each job's games, by the job's number."""
    damaged: Damaged = field(default_factory=Damaged)
    """The damaged lines (a game whose key could still be read counts as stored)."""


HOLDER_WAIT = 1.0
"""Seconds a runner refused the lock waits for its holder's pid to be written."""


_HELD_LOCKS: set[int] = set()
"""The descriptors of the folder locks this process holds."""


def _drop_inherited_locks() -> None:
    """In a forked child (a pool's worker): close its copies of the runner's lock descriptors.
    A flock belongs to the open file, which a fork shares: without this, workers orphaned by a
    runner killed outright would hold the folder until they noticed, and a `resume` at once
    would be refused as "being played by another process"."""
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_inherited_locks)


def _holder(fd: int) -> str:
    """Who holds the lock file `fd`: "pid N" once the holder has written its pid there, else
    "another process". The holder writes it just after taking the lock, over what the last
    holder wrote, so a runner started at the same moment reads it again for a moment until
    the file names a live process."""
    deadline = time.monotonic() + HOLDER_WAIT
    while True:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit() and int(text) > 0 and _alive(int(text)):
            return f"pid {text}"
        if time.monotonic() >= deadline:
            return "another process"
        time.sleep(0.02)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:  # another user's
        return True
    return True


class TournamentStore:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.config_path = directory / TOURNAMENT_FILE
        self.games_path = directory / GAMES_FILE
        self.lock_path = directory / LOCK_FILE
        self._keys: StoredKeys | None = None
        """The keys of the stored games, once read: append refuses a game stored already."""

    def exists(self) -> bool:
        return self.config_path.exists()

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the folder for this process: one runner per tournament folder. The lock is
        the kernel's (flock), so it goes with the process however that ends."""
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                who = _holder(fd)
                raise FolderBusy(f"{self.directory} is being played by {who}") from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
            _HELD_LOCKS.add(fd)
            yield
        finally:
            _HELD_LOCKS.discard(fd)
            os.close(fd)

    def note_failed_start(self, message: str | None) -> None:
        """Keep why this run stops at a program that could not start; None: a run begins."""
        path = self.directory / FAILED_START_FILE
        if message is None:
            path.unlink(missing_ok=True)
        else:
            with write_atomically(path) as file:
                file.write(message + "\n")

    def failed_start(self) -> str | None:
        """Why the last run stopped at a program that could not start, if it did."""
        try:
            return (self.directory / FAILED_START_FILE).read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None

    def create(self, config: TournamentConfig) -> TournamentFile:
        """Start a new tournament folder, or reopen one that has the same configuration (the
        external bots' launch settings may change: they are how a program is found, not which
        games are played)."""
        if self.exists():
            existing = self.load()
            if existing.config == config:
                return existing
            if not same_games(existing.config, config):
                changed = differences(game_fields(existing.config), game_fields(config))
                raise ConfigError(
                    f"{self.directory} holds a tournament with another configuration ({changed}); "
                    "resume it with 'referee tournament resume' or choose another folder"
                )
            # Launch settings changed (a fix after a failed start): same games, new file.
            return self._write(existing.model_copy(update={"config": config}))
        self.directory.mkdir(parents=True, exist_ok=True)
        created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        info = TournamentFile(
            id=tournament_id(config), created=created, config=config, schedule="by-round"
        )
        return self._write(info)

    def _write(self, info: TournamentFile) -> TournamentFile:
        """Write tournament.json whole (a temporary file renamed), with the config's digest."""
        info = info.model_copy(
            update={"digest": config_digest(info.model_dump(mode="json")["config"])}
        )
        with write_atomically(self.config_path) as file:
            file.write(info.model_dump_json(indent=2) + "\n")
        return info

    def load(self) -> TournamentFile:
        """tournament.json, refused when its configuration was edited after it was written."""
        try:
            text = self.config_path.read_bytes()
            check_nesting(text)
            data = json.loads(text)
            info = TournamentFile.model_validate(data)
        except OSError as error:
            raise ConfigError(f"{self.config_path}: cannot read: {error.strerror}") from None
        except ValidationError as error:
            problem = first_problem(error)
            raise ConfigError(f"{self.config_path}: not a tournament file: {problem}") from None
        except ValueError as error:
            raise ConfigError(f"{self.config_path}: not a tournament file: {error}") from None
        if info.digest is not None and _sha256(data["config"]) != info.digest.config:
            changed = changed_fields(info.digest, data["config"])
            named = ", ".join(changed[:3]) + (
                f" and {len(changed) - 3} more" if changed[3:] else ""
            )
            raise ConfigError(
                f"{self.config_path}: the configuration was edited after the tournament "
                f"started ({named or 'its layout'} changed); put it back, or start a new folder "
                "(grow a tournament with 'referee tournament extend')"
            )
        return info

    def extend(
        self,
        games_per_pair: int | None = None,
        rounds: int | None = None,
        sprt: str | None = None,
        check: Callable[[TournamentFile], None] | None = None,
    ) -> tuple[TournamentFile, int]:
        """Schedule more games per pairing (a larger `games_per_pair`, or more `rounds` of the
        whole schedule), or give the SPRT other bounds (`sprt`); `check` may refuse the new
        file before it is written. Returns the new file and how many games it added.

        The new games are those a tournament configured with the larger numbers from the start
        would play after the ones already scheduled (same numbers, same seeds)."""
        info = self.load()
        old = info.config
        wanted: dict[str, Any] = {
            "games_per_pair": old.games_per_pair if games_per_pair is None else games_per_pair,
            "rounds": old.rounds if rounds is None else rounds,
        }
        if sprt is not None:
            if old.sprt is None:
                raise ConfigError(f"{self.directory} runs no SPRT: --sprt has no bounds to change")
            wanted["sprt"] = canonical_sprt(sprt)
        if wanted["games_per_pair"] < old.games_per_pair or wanted["rounds"] < old.rounds:
            raise ConfigError(f"{self.directory}: a tournament grows; it does not shrink")
        grows = wanted["rounds"] * wanted["games_per_pair"] > old.rounds * old.games_per_pair
        if not grows and wanted.get("sprt", old.sprt) == old.sprt:
            raise ConfigError(
                f"{self.directory} already plays {old.games_per_pair} games per pairing x "
                f"{plural(old.rounds, 'round')}; give more to extend it"
            )
        if grows and info.schedule == "by-pairing" and old.games_per_pair * old.rounds > 2:
            raise ConfigError(
                f"{self.directory} numbers its games pairing by pairing (made by an older "
                "referee), so it cannot grow without renumbering them; start a new tournament"
            )
        config = build_config(**{**old.model_dump(), **wanted})
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        change = ", ".join(
            f"{key} {getattr(old, key)} -> {value}"
            for key, value in wanted.items()
            if value != getattr(old, key)
        )
        grown = info.model_copy(
            update={
                "config": config,
                "schedule": "by-round" if grows else info.schedule,
                "history": [*info.history, f"{stamp} {change}"],
            }
        )
        if check is not None:
            check(grown)
        return self._write(grown), grown.size() - info.size()

    def scan(self) -> Iterator[StoredGame]:
        """The key and result of each stored game in file order, read without building the
        records (records/scan.py): a runner resuming a million games reads them in seconds and
        keeps none. A last line without its line break (a write cut short, which
        `open_for_append` cuts off, whole as it may seem) is skipped; any other line that is
        no valid record is a damaged line, whose game counts as stored when its key can still
        be read (`keys.salvage`), so that it is never played again."""
        keys = StoredKeys()
        if self.games_path.exists():
            with self.games_path.open("rb") as stream:
                for scanned in scan_jsonl(stream):
                    if not scanned.raw.endswith(b"\n"):
                        continue  # even when it reads: `open_for_append` cuts it off
                    if scanned.header is not None:
                        key = game_key(scanned.header)
                        stored = StoredGame(key, Ending.of(scanned.header.result))
                    else:
                        assert scanned.error is not None
                        key, result = salvage(scanned.raw)
                        damage = DamagedLine(scanned.line, _reason(scanned.error))
                        stored = StoredGame(key, _salvaged_ending(result), damage)
                    if key is not None:
                        keys.add(key)
                    yield stored
        self._keys = keys

    def tally(self, scheduled: int | None = None, results: bool = False) -> StoredGames:
        """What the stored games come to, read by `scan` (no record built, nothing kept per
        game but what is asked): a million games are counted in seconds, in megabytes. A
        game stored twice counts once; a job counts when its number is one of the `scheduled`
        (all when None); with `results`, the endings of each job's games."""
        tally = StoredGames()
        keys = StoredKeys()
        jobs = NumberSet()
        for stored in self.scan():
            if stored.damage is not None:
                tally.damaged.add(stored.damage)
            key = stored.key
            if key is None:
                continue
            if not keys.add(key):
                tally.repeats[key] = tally.repeats.get(key, 1) + 1
                continue
            tally.games += 1
            if stored.ending is not None:
                tally.reasons[stored.ending.reason] += 1
            number = key[2]
            if (scheduled is None or number < scheduled) and jobs.add(number):
                tally.jobs += 1
            if results:
                tally.results.setdefault(number, []).append(stored.ending)
        return tally

    def repair(self) -> list[DamagedLine]:
        """Move every line of games.jsonl that `referee validate` refuses, and a last line cut
        short, to games.rejected (appended byte for byte, each noted in games.rejected.txt
        with why), and write games.jsonl again with the other lines byte for byte in their
        order; the lines moved, with why. The games of the lines moved are no longer stored:
        `resume` plays them again. Done under the folder's lock, so never while a runner
        appends; games.jsonl is replaced whole (`write_atomically`), and the rejected lines
        are made durable first, so a crash loses no line (at worst a line is in both files);
        a file that cannot be written (a full disk) leaves the folder as it was."""
        from referee.validator.check import validate_stream  # replays: only when asked for

        with self.lock():
            if not self.games_path.exists():
                return []
            with self.games_path.open("rb") as stream:
                refused = {
                    report.line: _reason_of(report.diagnostics[0])
                    for report in validate_stream(stream, GAMES_FILE, self.games_path)
                    if not report.valid and report.line is not None and report.diagnostics
                }
            moved: list[DamagedLine] = []
            with self.games_path.open("rb") as stream:
                for number, raw in enumerate(stream, 1):
                    if not raw.endswith(b"\n") and not raw.isspace():
                        moved.append(DamagedLine(number, "cut short (no line break at its end)"))
                    elif number in refused:
                        moved.append(DamagedLine(number, refused[number]))
            if not moved:
                return []
            side = [self.directory / REJECTED_FILE, self.directory / REJECTED_NOTES]
            sizes = [path.stat().st_size if path.exists() else None for path in side]
            original = self.games_path.stat().st_ino
            try:
                self._set_aside(moved)
                aside = {damage.line for damage in moved}
                with (
                    self.games_path.open("rb") as stream,
                    write_atomically(self.games_path, "wb") as out,
                ):
                    for number, raw in enumerate(stream, 1):
                        if number not in aside:
                            out.write(raw)
            except BaseException:
                # A full disk or an interruption before games.jsonl was replaced: its lines
                # are all still there, so the copies set aside go (a repair run again would
                # set them aside twice).
                if self.games_path.stat().st_ino == original:
                    for path, size in zip(side, sizes, strict=True):
                        _cut_back(path, size)
                raise
            self._keys = None
            return moved

    def _set_aside(self, moved: Sequence[DamagedLine]) -> None:
        """Append the lines `moved` to games.rejected and why to its notes, durably."""
        wanted = {damage.line for damage in moved}
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        lines = []
        with self.games_path.open("rb") as stream:
            for number, raw in enumerate(stream, 1):
                if number in wanted:
                    lines.append(raw if raw.endswith(b"\n") else raw + b"\n")
        notes = [f"{stamp} {GAMES_FILE}:{damage.line}: {damage.reason}\n" for damage in moved]
        written = {REJECTED_FILE: b"".join(lines), REJECTED_NOTES: "".join(notes).encode("utf-8")}
        for name, data in written.items():
            path = self.directory / name
            try:
                with path.open("ab") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
            except OSError as error:
                raise cannot_write(path, error) from None

    def open_for_append(self) -> IO[bytes]:
        """Open games.jsonl for appending, first cutting off a last line left half-written."""
        if self.games_path.exists():
            with self.games_path.open("rb+") as stream:
                stream.truncate(_complete_length(stream))
        return self.games_path.open("ab")

    def append_lines(
        self, stream: IO[bytes], games: Sequence[tuple[GameKey | None, bytes]]
    ) -> list[int]:
        """Append games written as JSON lines (with their keys) in one durable write, except
        any game already stored (same tournament, pairing, game number and game of the match):
        those are refused, so that a game is never stored twice. The indexes of the games
        refused."""
        if self._keys is None:
            for _ in self.scan():
                pass
        assert self._keys is not None
        fresh: list[bytes] = []
        refused: list[int] = []
        for index, (key, line) in enumerate(games):
            if key is not None and not self._keys.add(key):
                refused.append(index)
                continue
            fresh.append(line)
        if fresh:
            # One write and one sync for the batch (a group commit): it survives a crash of
            # this process or of the machine, and costs about as much as a short game.
            stream.flush()
            descriptor = stream.fileno()
            whole = os.fstat(descriptor).st_size
            data = memoryview(b"".join(fresh))
            try:
                while data:  # past the buffer: a failed write leaves nothing to write later
                    data = data[os.write(descriptor, data) :]
                os.fsync(descriptor)
            except OSError as error:
                # A full disk or a size limit midway: cut the half-written line off, so the
                # file holds whole games only (the batch's spool file keeps them for resume).
                with contextlib.suppress(OSError):
                    os.ftruncate(descriptor, whole)
                raise cannot_write(self.games_path, error) from None
        return refused


def _cut_back(path: Path, size: int | None) -> None:
    """`path` back to its first `size` bytes, or removed when it was not there (None)."""
    with contextlib.suppress(OSError):
        if size is None:
            path.unlink(missing_ok=True)
        else:
            os.truncate(path, size)


def _complete_length(stream: IO[bytes], chunk: int = 1 << 16) -> int:
    """The length of the file up to and including its last newline."""
    end = stream.seek(0, os.SEEK_END)
    position = end
    while position > 0:
        start = max(0, position - chunk)
        stream.seek(start)
        block = stream.read(position - start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        position = start
    return 0
