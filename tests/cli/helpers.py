"""A command run in a real pseudo-terminal of a given size, and the screen it leaves.

The screen is worked out by a small terminal of our own: it prints characters, wraps a line
that reaches the right margin (the terminal's autowrap, which breaks words anywhere) and
follows the control sequences rich and Python write (carriage return, cursor up, erase line;
colours are ignored), so that a test sees what a user sees.
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
from dataclasses import dataclass, field
from pathlib import Path

_CONTROL = re.compile(r"\x1b\[([?0-9;]*)([A-Za-z])|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


@dataclass
class Screen:
    """The lines of a terminal `width` columns wide, from the first line written (nothing
    scrolls away), and the lines that were too long and wrapped."""

    width: int
    lines: list[list[str]] = field(default_factory=lambda: [[]])
    wrapped: list[str] = field(default_factory=list)
    row: int = 0
    column: int = 0

    def feed(self, text: str) -> None:
        at = 0
        for match in _CONTROL.finditer(text):
            self._print(text[at : match.start()])
            self._control(match.group(1) or "", match.group(2) or "")
            at = match.end()
        self._print(text[at:])

    def text(self) -> list[str]:
        return ["".join(line).rstrip() for line in self.lines]

    def _line(self) -> list[str]:
        while len(self.lines) <= self.row:
            self.lines.append([])
        line = self.lines[self.row]
        while len(line) < self.column:
            line.append(" ")
        return line

    def _print(self, text: str) -> None:
        for char in text:
            if char == "\r":
                self.column = 0
            elif char == "\n":
                self.row += 1
            elif char == "\b":
                self.column = max(self.column - 1, 0)
            elif char >= " ":
                if self.column >= self.width:  # the terminal wraps: a line too long
                    self.wrapped.append("".join(self._line()))
                    self.row += 1
                    self.column = 0
                line = self._line()
                if self.column < len(line):
                    line[self.column] = char
                else:
                    line.append(char)
                self.column += 1

    def _control(self, params: str, command: str) -> None:
        numbers = [int(part) for part in params.lstrip("?").split(";") if part.isdigit()]
        count = numbers[0] if numbers else 1
        if command == "A":
            self.row = max(self.row - count, 0)
        elif command == "B":
            self.row += count
        elif command == "C":
            self.column = min(self.column + count, self.width - 1)
        elif command == "D":
            self.column = max(self.column - count, 0)
        elif command == "G":
            self.column = count - 1
        elif command == "K":
            line = self._line()
            mode = numbers[0] if numbers else 0
            if mode == 2:
                line[:] = [" "] * len(line)
            elif mode == 0:
                del line[self.column :]
            else:
                line[: self.column] = [" "] * self.column


@dataclass
class Run:
    code: int
    raw: str
    """Everything written to the terminal, control sequences included."""
    screen: Screen
    piped: str
    """What went to the pipe, when standard output was one."""


def run_in_terminal(
    args: list[str], cwd: Path, width: int = 80, pipe_stdout: bool = False, timeout: float = 120
) -> Run:
    """`referee ARGS` with stdin, stderr (and stdout, unless piped) on a pseudo-terminal of
    `width` columns."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-c", "from referee.cli.app import main; main()", *args]
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdin=slave,
        stdout=subprocess.PIPE if pipe_stdout else slave,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every end of the terminal's other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    piped = process.stdout.read().decode() if process.stdout is not None else ""
    code = process.wait(timeout)
    raw = b"".join(chunks).decode()
    screen = Screen(width)
    screen.feed(raw)
    return Run(code, raw, screen, piped)


def words_intact(message: str, screen: Screen) -> list[str]:
    """The words of `message` that the screen does not show whole on one line."""
    shown = {word for line in screen.text() for word in line.split()}
    return [word for word in message.split() if word not in shown]
