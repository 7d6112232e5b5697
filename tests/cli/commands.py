"""Every command of `referee` and every parameter of each, classified by what it takes, the
arguments that make each command runnable, and `referee` run as a subprocess under a time
bound with the checks every run must pass (issue 31): the walker and the runner that the
hostile-value tests and the fuzz campaign share."""

from __future__ import annotations

import enum
import os
import re
import signal
import subprocess
import sys
import time
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from referee.cli.app import app

SAMPLES = Path(__file__).parents[1] / "validator" / "samples"
THAX = SAMPLES / "thax.jsonl"
TIMEOUT = 120
"""Seconds a single check's subprocess may take: generous, for a loaded machine."""

EXIT_CODES = {0, 1, 2, 3, 4}
"""The documented exit codes of a command that ends by itself (README: exit codes)."""

ERROR = "referee: error: "
WARNING = "referee: warning: "

OUTPUTS = {"--out", "--output", "--plot", "--svg", "target"}
"""Parameters that name a file or a folder to write."""

INPUT_METAVARS = {"PATH...", "IN...", "FILE", "FILE...", "DIR", "FILE|NAME"}


class Kind(enum.Enum):
    FLAG = "flag"
    INT = "int"
    FLOAT = "float"
    CHOICE = "choice"
    PATH_IN = "path in"
    PATH_OUT = "path out"
    TEXT = "text"


@dataclass(frozen=True)
class Parameter:
    """One option or argument of a command: `name` is its longest option (or the argument's
    name), `kind` what it takes, `choices` the values of a choice."""

    name: str
    kind: Kind
    argument: bool
    param: Any = field(compare=False, repr=False)
    choices: tuple[str, ...] = ()


def _kind(param: Any) -> tuple[Kind, tuple[str, ...]]:
    annotation = param.type_descriptor.annotation
    if typing.get_origin(annotation) is list:
        (annotation,) = typing.get_args(annotation)
    name = param.name if param.param_type_name == "argument" else max(param.opts, key=len)
    if annotation is bool:
        return Kind.FLAG, ()
    if annotation is int:
        return Kind.INT, ()
    if annotation is float:
        return Kind.FLOAT, ()
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return Kind.CHOICE, tuple(str(member.value) for member in annotation)
    if name in OUTPUTS:
        return Kind.PATH_OUT, ()
    if annotation is Path or param.metavar in INPUT_METAVARS:
        return Kind.PATH_IN, ()
    return Kind.TEXT, ()


def commands() -> dict[str, Any]:
    """Every command that runs (the sub-commands of a group, not the group), by its words:
    "validate", "tournament run"."""
    found: dict[str, Any] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands is None:
            found[" ".join(path)] = command
        for name, sub in (subcommands or {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def parameters(command: Any) -> list[Parameter]:
    """Every option and argument of `command` but --help."""
    found = []
    for param in command.params:
        argument = param.param_type_name == "argument"
        name = param.name if argument else max(param.opts, key=len)
        kind, choices = _kind(param)
        found.append(Parameter(name, kind, argument, param, choices))
    return found


COMMANDS = commands()


def numeric_options() -> list[tuple[tuple[str, ...], str, Any]]:
    """(command words, option, parameter) for every int and float option of every command."""
    return [
        (tuple(words.split()), parameter.name, parameter.param)
        for words, command in COMMANDS.items()
        for parameter in parameters(command)
        if parameter.kind in (Kind.INT, Kind.FLOAT)
    ]


TOURNAMENT = "t"
"""The folder, in a run's own folder, of the tournament the commands on one work on (the
caller puts one there, or leaves it missing)."""


def base_args(path: tuple[str, ...], where: Path) -> list[str]:
    """Arguments that make each command runnable, so that only the option tested is wrong."""
    tournament = str(where / TOURNAMENT)
    return {
        "validate": [str(THAX)],
        "schema": ["--out", str(where / "schemas")],
        "convert": [str(THAX), str(where / "out.json")],
        "moves": ["--record", str(THAX)],
        "perft": ["-g", "thax", "--depth", "1"],
        "bots": [],
        "demo": ["--out", str(where / "demo")],
        "ratings": [str(THAX)],
        "export": [str(THAX)],
        "report": [str(THAX), "-o", str(where / "r.html"), "--force"],
        "show": [str(THAX)],
        "openings": ["-g", "trax"],
        "select": [str(THAX)],
        "stats": [str(THAX)],
        "analyse": [str(THAX)],
        "tournament run": ["--out", str(where / "new"), "-g", "thax", "--bots", "random,greedy"],
        "tournament resume": [tournament],
        "tournament status": [tournament],
        "tournament repair": [tournament],
        "tournament extend": [tournament, "--rounds", "2"],
    }[" ".join(path)]


OWN_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")
"""The name of a file referee writes before it renames it over the file wanted (files.py)."""

TEMPORARY = "temporary-folder"
"""The folder, in a run's own folder, that it gets as TMPDIR."""


@dataclass
class Outcome:
    """A run of `referee` and what is wrong with it (`problems`, empty when it behaved)."""

    args: list[str]
    stdin: bytes | None
    code: int | None
    stdout: bytes
    stderr: bytes
    seconds: float
    problems: list[str]

    @property
    def hung(self) -> bool:
        return self.code is None

    @property
    def traceback(self) -> bool:
        return b"Traceback" in self.stdout + self.stderr

    def shown(self) -> str:
        args = " ".join(repr(arg) if " " in arg or not arg else arg for arg in self.args)
        tail = self.stderr.decode(errors="replace")[-3000:]
        return f"referee {args[:500]}\n  exit {self.code}: {'; '.join(self.problems)}\n{tail}"


def _leftovers(folder: Path) -> list[str]:
    """Temporary files a command left: its own (`.NAME.HEX.tmp`) and those of the temporary
    folder it was given (standard input's copy)."""
    found = [str(path) for path in folder.rglob(".*.tmp") if OWN_TEMPORARY.match(path.name)]
    temporary = folder / TEMPORARY
    if temporary.is_dir():
        found += [str(path) for path in temporary.iterdir()]
    return found


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user took the number
        return False
    return True


def run_bounded(
    args: list[str], cwd: Path, stdin: bytes | None = None, timeout: float = TIMEOUT
) -> Outcome:
    """`python -m referee ARGS` in `cwd` (its temporary folder in there), standard input
    closed or given `stdin`, stopped after `timeout` seconds; then the checks of issue 31: no
    traceback, a documented exit code, an error of exit 2 or 4 in one line (after any
    warnings), no temporary file left, no process of its own left running."""
    temporary = cwd / TEMPORARY
    temporary.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(temporary), "COLUMNS": "80"}
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,  # its children share its process group: found, and stopped
    )
    try:
        stdout, stderr = process.communicate(stdin, timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        code = None
    seconds = time.monotonic() - start
    problems = []
    if code is None:
        problems.append(f"still running after {timeout:g} s")
    elif code not in EXIT_CODES:
        problems.append(f"exit code {code}")
    if b"Traceback" in stdout + stderr:
        problems.append("a traceback")
    if code in (2, 4):
        lines = [line for line in stderr.decode(errors="replace").splitlines() if line]
        errors = [line for line in lines if not line.startswith(WARNING)]
        if len(errors) != 1 or not errors[0].startswith(ERROR) or lines[-1] != errors[0]:
            problems.append("not one error line")
    # Processes that outlive it end within moments (a pool shutting down); any still there
    # after a few seconds are left behind.
    for _ in range(50):
        if not _group_alive(process.pid):
            break
        time.sleep(0.1)
    else:
        problems.append("processes left running")
        os.killpg(process.pid, signal.SIGKILL)
    if code is not None and (left := _leftovers(cwd)):
        problems.append(f"temporary files left: {left[:3]}")
    return Outcome(args, stdin, code, stdout, stderr, seconds, problems)


def referee(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`python -m referee ARGS`, its environment with `env` added, which prints no traceback."""
    out = subprocess.run(
        [sys.executable, "-m", "referee", *args],
        input=stdin,
        env=None if env is None else {**os.environ, **env},
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert b"Traceback" not in out.stderr + out.stdout, out.stderr.decode(errors="replace")
    return out


def one_error_line(out: subprocess.CompletedProcess[bytes], *words: str) -> str:
    assert out.returncode == 2, out.stderr
    lines = out.stderr.decode(errors="replace").splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERROR), lines
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]
