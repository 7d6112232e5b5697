"""A bot's process: lines in and out with time limits, a line-length cap and a memory cap."""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import signal
import subprocess
import time
from pathlib import Path

from referee.games.bot import Forfeit

READ_CHUNK = 1 << 16


class BotProcess:
    """One running bot program; every failure becomes a Forfeit with what happened."""

    def __init__(
        self,
        command: list[str],
        stderr_log: Path | None,
        memory_mb: int | None = None,
        max_line: int = 1 << 20,
    ) -> None:
        self.command = command
        self.max_line = max_line
        self.buffer = bytearray()
        log = stderr_log.open("ab") if stderr_log is not None else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                bufsize=0,
                preexec_fn=_limits(memory_mb),
                start_new_session=True,
            )
        except OSError as error:
            raise Forfeit(
                "crash", f"cannot start {' '.join(command)!r}: {error.strerror}"
            ) from None
        finally:
            if stderr_log is not None:
                log.close()  # type: ignore[union-attr]
        assert self.process.stdout is not None and self.process.stdin is not None
        self.stdout_fd = self.process.stdout.fileno()
        os.set_blocking(self.stdout_fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.stdout_fd, selectors.EVENT_READ)

    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, line: str) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError):
            raise Forfeit("crash", self._exit_text("stopped reading its input")) from None

    def receive(self, timeout: float, what: str) -> tuple[str, float]:
        """The next line and the seconds it took; Forfeit on time, exit or a flood."""
        started = time.perf_counter()
        deadline = started + timeout
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                raw = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                if len(raw) > self.max_line:
                    raise self._too_long()
                try:
                    text = raw.decode("utf-8").rstrip("\r")
                except UnicodeDecodeError:
                    raise Forfeit("protocol_error", f"{what}: a line that is not UTF-8") from None
                return text, time.perf_counter() - started
            if len(self.buffer) > self.max_line:
                raise self._too_long()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise Forfeit("time", f"no {what} within {timeout * 1000:.0f} ms")
            if not self.selector.select(remaining):
                continue
            try:
                chunk = os.read(self.stdout_fd, READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise Forfeit("crash", self._exit_text(f"closed its output before the {what}"))
            self.buffer += chunk

    def _too_long(self) -> Forfeit:
        return Forfeit("protocol_error", f"a line longer than {self.max_line} bytes")

    def _exit_text(self, what: str) -> str:
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return what
        if code < 0:
            return f"{what}: killed by signal {signal.Signals(-code).name}"
        return f"{what}: exited with code {code}"

    def close(self, grace: float = 0.5) -> None:
        """Stop the process: ask by closing its input, then terminate, then kill."""
        self.selector.close()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def _signal(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, number)


def _limits(memory_mb: int | None):
    def apply() -> None:
        if memory_mb is not None:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply
