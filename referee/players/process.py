"""A bot's process: lines in and out against deadlines, its standard error drained into a bounded
log, and every process it started stopped with it, even when the worker that started it dies.

Each bot runs in a session (and process group) of its own, so that stopping it stops every
process it started. On Linux it also gets a parent-death signal: when the worker process dies,
however it dies, the kernel kills the bot. The bot's own children are killed through its process
group: by the worker when it stops normally or notices its runner has gone, and by the runner,
from the group files in `groups` (see `kill_orphans`), when a worker was killed outright.

A process that leaves the group (a daemon: a new session, a double fork) is found through the
process tree instead (Linux /proc). The bot is a child subreaper (`PR_SET_CHILD_SUBREAPER`,
kept across exec), so that while it runs everything it started stays below it in the tree,
however it detached: the worker looks at the tree (`BotProcess.look`), notes what it finds in
the group file and kills it with the group. A pool worker is a subreaper too
(`become_subreaper`): what a bot leaves when it exits comes to the worker, which kills every
child of its own that is not a running bot (`kill_adopted`).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import resource
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from referee.games.agent import Forfeit

READ_CHUNK = 1 << 16
BASE_ENVIRONMENT = ("PATH", "HOME", "LANG", "TMPDIR")
"""The variables of the runner's environment every bot gets; the rest only when named."""
LOG_LIMIT = 10 << 20
"""Default cap of a bot's stderr log over a whole tournament, in bytes."""
LAST_LINE = 200
"""Characters of a bot's last stderr line kept for a forfeit's detail."""
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SEND_WAIT = 10.0
"""Seconds a program may leave a message unread (a full pipe) outside a move's own time."""


@dataclass(frozen=True)
class Launch:
    """How to start a bot's process."""

    command: tuple[str, ...]
    cwd: str
    env: Mapping[str, str] = field(default_factory=dict)
    """The whole environment of the process."""
    memory_mb: int | None = None
    max_line: int = 1 << 20
    groups: str | None = None
    """A folder where each live bot's process group is noted while it runs (`kill_orphans`)."""


def minimal_environment(
    added: Mapping[str, str], passed: Iterable[str], source: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """PATH, HOME, LANG and TMPDIR of `source`, the variables named in `passed` (when set), then
    `added` on top: a bot sees no other variable of the runner (cloud keys, tokens)."""
    names = [*BASE_ENVIRONMENT, *passed]
    environment = {name: source[name] for name in names if name in source}
    environment.update(added)
    return environment


class BotLog:
    """A bot's stderr log, shared by its processes and by the workers of a tournament, never
    longer than `limit` bytes plus one note saying that it was cut."""

    def __init__(self, path: Path | None, limit: int = LOG_LIMIT) -> None:
        self.path = path
        self.limit = limit
        self.lock = threading.Lock()
        self.failure: str | None = None
        """Why the log could not be written (a full disk, a folder that cannot be written):
        from then on the bot's output is dropped, and its games go on."""
        self.told = False

    def write(self, data: bytes) -> None:
        if self.path is None or not data:
            return
        with self.lock:
            if self.failure is not None:
                return
            try:
                self._append(self.path, data)
            except OSError as error:
                self.failure = (
                    f"cannot write the log {self.path}: {error.strerror or error}; "
                    "the rest of the bot's stderr is dropped"
                )

    def _append(self, path: Path, data: bytes) -> None:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            # Workers playing the same bot at once append to one file: the size check and the
            # write go together under the file lock.
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            size = os.fstat(descriptor).st_size
            if size > self.limit:
                return  # cut already: only the note may stand above the limit
            room = self.limit - size
            os.write(descriptor, data[:room])
            if len(data) > room:
                note = (
                    f"\n[referee: this log reached its limit of {self.limit} bytes; "
                    "the rest of the bot's output is dropped]\n"
                )
                os.write(descriptor, note.encode())
        finally:
            os.close(descriptor)

    def untold_failure(self) -> str | None:
        """Why the log could not be written, the first time it is asked only: a failure is
        told once."""
        with self.lock:
            if self.failure is None or self.told:
                return None
            self.told = True
            return self.failure

    def note(self, text: str) -> None:
        """A line from referee itself (what it dropped, a team name), marked as such."""
        self.write(f"[referee: {text}]\n".encode())


class _Drain(threading.Thread):
    """Reads a bot's stderr as it comes into the log, so that the bot never blocks on a full
    pipe and nothing it wrote is lost when it is stopped; keeps the last lines in memory. A
    log that cannot be written drops what comes (`BotLog.failure`): the reading goes on."""

    def __init__(self, descriptor: int, log: BotLog) -> None:
        super().__init__(name="bot-stderr", daemon=True)
        self.descriptor = descriptor
        self.log = log
        self.tail = b""

    def run(self) -> None:
        while True:
            try:
                chunk = os.read(self.descriptor, READ_CHUNK)
            except OSError:
                return
            if not chunk:
                return
            self.log.write(chunk)
            self.tail = (self.tail + chunk)[-4 * LAST_LINE :]

    def last_line(self) -> str:
        for line in reversed(self.tail.decode("utf-8", "replace").splitlines()):
            if line.strip():
                return line.strip()[:LAST_LINE]
        return ""


_live: dict[int, BotProcess] = {}
"""The bots this process has started and not stopped, by pid."""
_live_lock = threading.RLock()
"""Reentrant: a worker's SIGTERM handler (`kill_live_groups`) may run while its main thread
holds the lock."""


class BotProcess:
    """One running bot program; every failure becomes a Forfeit with what happened."""

    def __init__(self, launch: Launch, log: BotLog) -> None:
        self.command = launch.command
        self.max_line = launch.max_line
        self.buffer = bytearray()
        if not os.path.isdir(launch.cwd):
            raise Forfeit(f"cannot start: no folder {launch.cwd}", reason="crash")
        try:
            self.process = subprocess.Popen(
                launch.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=launch.cwd,
                env=dict(launch.env),
                preexec_fn=_child_setup(launch.memory_mb, os.getpid()),
                start_new_session=True,
            )
        except OSError as error:
            raise Forfeit(f"cannot start: {error.strerror or error}", reason="crash") from None
        self.pid = self.process.pid
        self.family: dict[int, str] = {}
        """The processes seen below the bot in the process tree, by pid, with their start
        times (a pid reused by another process has another start time)."""
        self.looked = False
        """Whether the tree has been looked at (`look`): first when the program writes its
        first line."""
        self.group_file = _note_group(self.pid, launch.groups)
        with _live_lock:
            _live[self.pid] = self
        assert self.process.stdout is not None and self.process.stderr is not None
        self.drain = _Drain(self.process.stderr.fileno(), log)
        self.drain.start()
        self.stdout_fd = self.process.stdout.fileno()
        os.set_blocking(self.stdout_fd, False)
        assert self.process.stdin is not None
        self.stdin_fd = self.process.stdin.fileno()
        os.set_blocking(self.stdin_fd, False)
        self.poller = select.poll()  # leaner per call than selectors, which wrap it
        self.poller.register(self.stdout_fd, select.POLLIN)
        self.closed = False

    def alive(self) -> bool:
        return not self.closed and _exit_status(self.process) is None

    def look(self) -> None:
        """Note every process below the bot in the process tree (those seen before and gone
        are dropped), in the group file too: while the bot runs, that is everything it
        started, a daemon in a session of its own included."""
        self.looked = True
        family = {pid: when for pid, when in self.family.items() if _start_time(pid) == when}
        for pid in descendants(self.pid):
            if pid not in family and (started := _start_time(pid)):
                family[pid] = started
        if family != self.family:
            self.family = family
            if self.group_file is not None:
                lines = [_start_time(self.pid), *(f"{pid} {when}" for pid, when in family.items())]
                self.group_file.write_text("\n".join(lines))

    def send(self, line: str, deadline: float | None = None) -> None:
        """Write a line; a program that does not read its input loses on time at `deadline`
        (by default SEND_WAIT seconds from now) instead of blocking referee."""
        data = memoryview(line.encode("utf-8") + b"\n")
        end = deadline if deadline is not None else time.perf_counter() + SEND_WAIT
        while data:
            try:
                data = data[os.write(self.stdin_fd, data) :]
            except BlockingIOError:
                remaining = end - time.perf_counter()
                if remaining <= 0:
                    raise Forfeit("it did not read its input", reason="time") from None
                select.select([], [self.stdin_fd], [], remaining)
            except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
                raise Forfeit(
                    self._exit_text("stopped reading its input"), reason="crash"
                ) from None

    def receive(self, deadline: float, what: str) -> str | None:
        """The next line, or None once `deadline` (time.perf_counter) has passed, even while
        lines keep coming; Forfeit on exit or a line too long."""
        while True:
            if time.perf_counter() > deadline:
                return None
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                raw = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                if len(raw) > self.max_line:
                    raise self._too_long()
                if not self.looked:  # it has started: what it runs beside itself is there
                    self.look()
                try:
                    return raw.decode("utf-8").rstrip("\r")
                except UnicodeDecodeError:
                    raise Forfeit(
                        f"{what}: a line that is not UTF-8", reason="protocol_error"
                    ) from None
            if len(self.buffer) > self.max_line:
                raise self._too_long()
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or not self.poller.poll(remaining * 1000):
                continue
            try:
                chunk = os.read(self.stdout_fd, READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise Forfeit(
                    self._exit_text(f"closed its output before the {what}"), reason="crash"
                )
            self.buffer += chunk

    def _too_long(self) -> Forfeit:
        return Forfeit(f"a line longer than {self.max_line} bytes", reason="protocol_error")

    def _exit_text(self, what: str) -> str:
        status = _wait_status(self.process, 0.5)
        if status is None:
            return what
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = str(-status)
            return f"{what}: killed by signal {name}"
        return f"{what}: exited with code {status}"

    def close(self, grace: float = 0.5) -> str:
        """Stop the process and every process of its group: ask by closing its input, then
        terminate, then kill; return the last non-empty line of its stderr (all of which is
        in the log by then)."""
        if self.closed:
            return self.drain.last_line()
        self.closed = True
        self.look()  # while the bot runs, whatever it started is below it
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        if _wait_status(self.process, grace) is None:
            _kill_group(self.pid, signal.SIGTERM)
            _wait_status(self.process, grace)
        # The leader has exited (or is killed now) but is not reaped yet, so its process group
        # id cannot have been reused: whatever still runs in the group is the bot's.
        self.kill()
        self.process.wait()
        self._forget()
        kill_adopted()
        self.drain.join(1.0)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None and not self.drain.is_alive():
                stream.close()
        return self.drain.last_line()

    def kill(self) -> None:
        """Kill the bot's group and every process seen below it that is still the same."""
        _kill_group(self.pid, signal.SIGKILL)
        _kill_all(self.family.items())

    def _forget(self) -> None:
        with _live_lock:
            _live.pop(self.pid, None)
        if self.group_file is not None:
            self.group_file.unlink(missing_ok=True)


def _exit_status(process: subprocess.Popen[bytes]) -> int | None:
    """The exit code (negative: the signal) of an exited child, without reaping it where the
    system allows (so that its process group id stays its own until the group is killed)."""
    if not hasattr(os, "waitid"):  # macOS
        return process.poll()
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return process.returncode if process.returncode is not None else 0
    if info is None or info.si_pid == 0:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def _wait_status(process: subprocess.Popen[bytes], timeout: float) -> int | None:
    deadline = time.perf_counter() + timeout
    pause = 0.0005
    while (status := _exit_status(process)) is None and time.perf_counter() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
    return status


def _kill_group(pgid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, number)


def _kill_all(processes: Iterable[tuple[int, str]]) -> None:
    """SIGKILL each (pid, start time) whose pid still names the process of that start time."""
    for pid, started in processes:
        if _start_time(pid) == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux /proc; none elsewhere)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found.extend(map(int, task.read_text().split()))
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid` in the process tree (Linux /proc; none elsewhere)."""
    found: list[int] = []
    below = children(pid)
    while below:
        found.extend(below)
        below = [child for parent in below for child in children(parent)]
    return found


def _start_time(pid: int) -> str:
    """The process's start time in clock ticks since boot (/proc), or '' where there is none."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def _note_group(pid: int, groups: str | None) -> Path | None:
    """The group file of a bot just started: its start time on the first line, then a line
    `pid start-time` for each process seen below it (`BotProcess.look`)."""
    if groups is None:
        return None
    folder = Path(groups)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / str(pid)
    path.write_text(_start_time(pid))
    return path


def kill_live_groups() -> None:
    """Kill every bot this process started and has not stopped, with everything it started:
    a worker that must leave at once (its runner is gone, or it is told to stop) leaves
    nothing behind."""
    with _live_lock:
        bots = list(_live.values())
    for bot in bots:
        bot.look()
        bot.kill()
        if bot.group_file is not None:
            bot.group_file.unlink(missing_ok=True)
    kill_adopted(leaving=True)


_adopting = False
"""Whether this process is a child subreaper (`become_subreaper`)."""
ADOPTED_WAIT = 2.0
"""Seconds `kill_adopted` goes on killing what keeps coming to this process."""


def become_subreaper() -> None:
    """Make this process (a pool worker, whose only children are the bots it starts) a child
    subreaper on Linux: what a bot leaves behind when it exits, however detached, becomes this
    process's child, for `kill_adopted` to find. Elsewhere nothing changes."""
    global _adopting
    libc = _load_libc()
    if libc is not None and libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0:
        _adopting = True


def kill_adopted(leaving: bool = False) -> None:
    """In a subreaper, kill and reap every child that is not a running bot: what stopped
    bots left behind, which came to this process when they exited (and, as those die, what
    they started). `leaving`: the running bots have been killed, every child goes."""
    if not _adopting:
        return
    deadline = time.monotonic() + ADOPTED_WAIT
    while time.monotonic() < deadline:
        with _live_lock:
            bots = set() if leaving else set(_live)
        strays = [pid for pid in children(os.getpid()) if pid not in bots]
        if not strays:
            return
        for pid in strays:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in strays:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def kill_orphans(groups: Path) -> None:
    """Kill what is left of the bots noted in `groups` by workers that died without stopping
    them (the kernel killed the bots themselves; their children live on in the group, and
    what left the group as the group file lists it).

    Call it only when no worker that noted a group there is running. A group id whose leader
    is gone cannot be taken by a new group while members of the old one live, so killing the
    group then reaches only the bot's processes; a leader alive with another start time is a
    new process that reused the id, and is left alone, as is a listed pid whose process has
    another start time.
    """
    if not groups.is_dir():
        return
    for path in groups.iterdir():
        if not path.name.isdigit():
            continue
        pgid = int(path.name)
        with contextlib.suppress(OSError):
            leader, *family = path.read_text().splitlines() or [""]
            started = _start_time(pgid)
            if not started or started == leader:
                _kill_group(pgid, signal.SIGKILL)
            listed = [line.split() for line in family]
            _kill_all((int(pair[0]), pair[1]) for pair in listed if _pid_line(pair))
        path.unlink(missing_ok=True)


def _pid_line(words: list[str]) -> bool:
    """Whether a line of a group file below the first is `pid start-time`."""
    return len(words) == 2 and words[0].isdigit()


def _forget_inherited() -> None:
    # A forked child did not start its parent's bots: they are not its own to kill. The lock
    # may have been held by a thread the child does not have.
    global _live_lock
    _live_lock = threading.RLock()
    _live.clear()


os.register_at_fork(after_in_child=_forget_inherited)

_libc: ctypes.CDLL | None = None


def _load_libc() -> ctypes.CDLL | None:
    """The C library, for prctl: on Linux only."""
    global _libc
    if sys.platform.startswith("linux") and _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _child_setup(memory_mb: int | None, parent: int) -> Callable[[], None]:
    """What the child does between fork and exec: the memory cap, and on Linux a SIGKILL when
    the worker dies and the child subreaper attribute (libc is loaded here, before the fork,
    so the child only calls it)."""
    libc = _load_libc()

    def apply() -> None:
        if memory_mb is not None:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if libc is not None:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
            if os.getppid() != parent:  # the worker died before the signal was set
                os.kill(os.getpid(), signal.SIGKILL)

    return apply
