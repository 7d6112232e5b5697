"""Fuzzing every command of `referee` as a subprocess (issue 31): each run is one command with
its base arguments (tests.cli.commands.base_args), its record input replaced by a sample of
one of the four games damaged with hypothesis (tests.fuzzing.damaged) or by a hostile path,
and some of its options given hostile values drawn by the option's kind. Every run must pass
the checks of `run_bounded`: no traceback, no hang, one error line, nothing left behind.

The default suite runs a sample (tests/cli/test_every_command_fuzzed.py); the full campaign,
with counts per command for the issue's note:

    PYTHONPATH=. nice python -m tests.cli.campaign --runs 3000 --jobs 2 --timeout 30
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.cli.commands import (
    COMMANDS,
    TEMPORARY,
    THAX,
    TOURNAMENT,
    Kind,
    Outcome,
    Parameter,
    base_args,
    parameters,
    run_bounded,
)
from tests.fuzzing import damaged

ROOT = Path(__file__).parents[2]
RECORDS = sorted((ROOT / "tests" / "validator" / "samples").iterdir()) + sorted(
    (ROOT / "tests" / "fixtures" / "takhteh").glob("*.mat")
)
CONFIG = ROOT / "examples" / "tournament.toml"

MB = 1 << 20
LONG_ARGUMENT = "x" * 100_000
"""Long text for an argument: a single argument of 1 MB is more than Linux passes (128 kB)."""

NO_UTF8 = "\udcff"
"""A byte that is no UTF-8 (0xff), as Python passes it in an argument or a file name."""

# Hostile paths, relative to the run's folder, and how each is made there.
FOLDER = "a-folder"
EMPTY = "empty.jsonl"
BIG = "big.jsonl"
NOISE = "noise.jsonl"
EXISTING = "existing.txt"
UNDER_FILE = f"{EXISTING}/inner.jsonl"
MISSING = "missing/deeper/file.jsonl"
ODD_NAME = f"games{NO_UTF8}.jsonl"
TOO_LONG = "n" * 300 + ".jsonl"
MADE: dict[str, Callable[[Path], object]] = {
    FOLDER: lambda path: path.mkdir(),
    EMPTY: lambda path: path.write_bytes(b""),
    BIG: lambda path: path.write_bytes(THAX.read_bytes().splitlines()[0] * (MB // 6000)),
    NOISE: lambda path: path.write_bytes(bytes(range(256)) * (MB // 256)),
    EXISTING: lambda path: path.write_text("not a report\n"),
    ODD_NAME: lambda path: path.write_bytes(THAX.read_bytes()),
}

INPUTS = [FOLDER, EMPTY, BIG, NOISE, UNDER_FILE, MISSING, ODD_NAME, TOO_LONG, "", "-", "."]
OUTPUTS = [FOLDER, EXISTING, UNDER_FILE, MISSING, ODD_NAME, TOO_LONG, "", "-", ".", "..", "x.tmp"]
"""Hostile outputs, all inside the run's folder: a path such as /dev/full would be renamed over
(files are written beside and renamed), which must never happen to a device of the machine."""

INTS = ["-1", "0", "1", str(2**64), str(-(2**64)), str(10**30), "nan", "inf", "", "1.5"]
INTS += ["0x10", " 7", NO_UTF8, "\u0661", "1_000", "-0", "9" * 5000]
FLOATS = ["-1", "0", "-0", "1e309", "-1e309", "nan", "inf", "-inf", "", "1e-320", str(2**64)]
FLOATS += [NO_UTF8, "0x1p3", "1_0", "1.5", "1e-3", str(10**400)]
TEXTS = ["", " ", "-", "=", ",", ":", "+", NO_UTF8, LONG_ARGUMENT, "\n", "a\x1b[31mb", "nan"]
TEXTS += ["-1", "0", str(2**64), "\u00e9", "random", "greedy", "thax", "trax", "thai"]
TEXTS += ["takhteh", "a=b", "x=1", "random:depth=99999", "1e999", "-inf", "8x8", "looptrax"]
TEXTS += ["match=0", "match=-1", "match=99999999999999999999", "1+", "+1", "10+0.1", "0+0"]
TEXTS += ["elo0=0,elo1=5", "elo0=nan,elo1=inf", "resign=1:1", "draw=0:0:0", "1..", "..-1"]
TEXTS += ["random.env=A=B", "random.time_limit=nan", "@0+ B1/", "W:W1:B2", "11200/01000 1"]

ARGUMENT_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20
)
"""Any text an argument can hold (no NUL, no lone surrogate but those of bytes)."""


def hostile(parameter: Parameter) -> st.SearchStrategy[str]:
    """Values that a parameter of this kind may be given wrong."""
    if parameter.kind is Kind.INT:
        return st.sampled_from(INTS)
    if parameter.kind is Kind.FLOAT:
        return st.sampled_from(FLOATS)
    if parameter.kind is Kind.CHOICE:
        first = parameter.choices[0]
        wrong = ["", NO_UTF8, first.upper(), first + " ", LONG_ARGUMENT]
        return st.sampled_from([*parameter.choices, *wrong])
    if parameter.kind is Kind.PATH_IN:
        return st.sampled_from(INPUTS)
    if parameter.kind is Kind.PATH_OUT:
        return st.sampled_from(OUTPUTS)
    return st.one_of(st.sampled_from(TEXTS), ARGUMENT_TEXT)


@dataclass
class Case:
    """One run: the command's words and arguments (paths relative to its folder), the files
    to make there first, standard input (None: closed), and whether the folder holds a copy
    of the tournament."""

    command: str
    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes | None = None
    tournament: bool = False


RECORD = "in"
"""The name (and its sample's suffix) of the record file a run reads."""


@st.composite
def cases(draw: st.DrawFn, template: Path, command: str | None = None) -> Case:
    """A run of `command` (by default any); `template` is a tournament folder, copied for the
    commands on one (its files maybe damaged)."""
    if command is None:
        command = draw(st.sampled_from(sorted(COMMANDS)), label="command")
    case = Case(command, base_args(tuple(command.split()), Path()))
    case.tournament = TOURNAMENT in case.args
    # The record read: a sample of any game, damaged or not, under a file name or on stdin
    sample = draw(st.sampled_from(RECORDS), label="sample")
    content = sample.read_bytes()
    if draw(st.booleans(), label="damaged"):
        content = draw(damaged(content, sample.suffix), label="record")
    source = draw(st.sampled_from(["file", "file", "stdin", "no suffix"]), label="source")
    name = {"file": RECORD + sample.suffix, "no suffix": RECORD, "stdin": "-"}[source]
    if source == "stdin":
        case.stdin = content
    else:
        case.files[name] = content
    case.args = [name if arg == str(THAX) else arg for arg in case.args]
    if case.tournament and draw(st.booleans(), label="damage the tournament"):
        changed = draw(st.sampled_from(["games.jsonl", "tournament.json"]), label="file")
        original = (template / changed).read_bytes()
        case.files[f"{TOURNAMENT}/{changed}"] = draw(damaged(original, ".json"), label=changed)
    params = parameters(COMMANDS[command])
    if params:
        for parameter in draw(
            st.lists(st.sampled_from(params), max_size=4, unique_by=lambda p: p.name),
            label="parameters",
        ):
            case.args += given_wrong(draw, parameter, case)
    if "--config" in case.args:
        config = CONFIG.read_bytes()
        case.files["config.toml"] = draw(st.one_of(st.just(config), damaged(config, ".toml")))
    return case


def given_wrong(draw: st.DrawFn, parameter: Parameter, case: Case) -> list[str]:
    """The arguments that give `parameter` a hostile value (an argument's is put in place of
    the base's first path of its kind, or added when the argument takes many)."""
    if parameter.kind is Kind.FLAG:
        names = [*parameter.param.opts, *parameter.param.secondary_opts]
        return [draw(st.sampled_from(names), label=parameter.name)]
    value = draw(hostile(parameter), label=parameter.name)
    if value == "-" and case.stdin is None:
        choices = [b"", b"\xff\xfe", THAX.read_bytes(), bytes(range(256)) * (MB // 256)]
        case.stdin = draw(st.sampled_from(choices), label="stdin")
    if parameter.name == "--config" and value not in INPUTS:
        value = "config.toml"
    if not parameter.argument:
        return [parameter.name, value]
    if parameter.param.nargs == -1 and draw(st.booleans(), label="another"):
        return [value]
    # Replace the positional argument of the base: the first that is a path of this kind.
    for at, arg in enumerate(case.args):
        if not arg.startswith("-") or arg == "-":
            case.args[at] = value
            break
    return []


def materialize(case: Case, folder: Path, template: Path) -> None:
    """Make the files `case` needs in `folder`."""
    if case.tournament:
        shutil.copytree(template, folder / TOURNAMENT)
    for name, make in MADE.items():
        if any(name in arg for arg in case.args):
            make(folder / name)
    for name, content in case.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)


LONGER = {"demo": 4}
"""Commands whose work takes more than the bound when nothing is wrong, and how many times
the bound they get: demo plays a round robin of every game (10 s of CPU, more than 30 s on a
loaded machine)."""


def play(case: Case, template: Path, timeout: float) -> Outcome:
    """Run `case` in a folder of its own, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="referee-fuzz-") as name:
        folder = Path(name)
        materialize(case, folder, template)
        bound = timeout * LONGER.get(case.command, 1)
        return run_bounded([*case.command.split(), *case.args], folder, case.stdin, bound)


@contextmanager
def played_tournament() -> Iterator[Path]:
    """A finished tournament folder (two THAX games), the template of the commands on one."""
    with tempfile.TemporaryDirectory(prefix="referee-fuzz-template-") as name:
        out = Path(name) / TOURNAMENT
        args = ["tournament", "run", "--out", str(out), "-g", "thax", "--bots", "random,greedy"]
        outcome = run_bounded([*args, "--turn-cap", "6", "-q"], Path(name))
        assert outcome.code == 0 and not outcome.problems, outcome.shown()
        shutil.rmtree(Path(name) / TEMPORARY)
        yield out


@dataclass
class Tally:
    """What the runs of each command gave."""

    runs: Counter[str] = field(default_factory=Counter)
    codes: dict[str, Counter[str]] = field(default_factory=dict)
    problems: dict[str, Counter[str]] = field(default_factory=dict)
    failures: list[Outcome] = field(default_factory=list)
    slowest: dict[str, float] = field(default_factory=dict)
    log: Path | None = None
    """A file to add each failing run to as it is found, one JSON object a line."""

    def add(self, command: str, outcome: Outcome) -> None:
        self.runs[command] += 1
        self.codes.setdefault(command, Counter())[str(outcome.code)] += 1
        self.slowest[command] = max(self.slowest.get(command, 0.0), outcome.seconds)
        counts = self.problems.setdefault(command, Counter())
        for problem in outcome.problems:
            counts[problem.split(":")[0].split(" after ")[0]] += 1
        if outcome.problems:
            self.failures.append(outcome)
            if self.log is not None:
                with self.log.open("a") as log:
                    shown = {"args": outcome.args, "code": outcome.code}
                    shown |= {"problems": outcome.problems, "stdin": outcome.stdin is not None}
                    shown["stderr"] = outcome.stderr.decode(errors="replace")[-3000:]
                    log.write(json.dumps(shown) + "\n")

    def table(self) -> str:
        rows = [
            f"{'command':<20}{'runs':>6}{'tracebacks':>11}{'hangs':>7}{'other':>7}"
            f"{'slowest s':>10}  exit codes"
        ]
        for command in sorted(COMMANDS):
            problems = self.problems.get(command, Counter())
            tracebacks = problems["a traceback"]
            hangs = problems["still running"]
            other = sum(problems.values()) - tracebacks - hangs
            codes = " ".join(
                f"{code}:{n}" for code, n in sorted(self.codes.get(command, {}).items())
            )
            rows.append(
                f"{command:<20}{self.runs[command]:>6}{tracebacks:>11}{hangs:>7}{other:>7}"
                f"{self.slowest.get(command, 0.0):>10.1f}  {codes}"
            )
        total = sum(self.runs.values())
        rows.append(
            f"{'all':<20}{total:>6}{sum(p['a traceback'] for p in self.problems.values()):>11}"
            f"{sum(p['still running'] for p in self.problems.values()):>7}"
        )
        return "\n".join(rows)


FUZZ = settings(
    deadline=None,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def fuzz(
    tally: Tally,
    runs: int,
    jobs: int,
    timeout: float,
    template: Path,
    derandomize: bool,
    progress: int = 0,
    only: tuple[str, ...] = (),
) -> None:
    """`runs` runs of drawn cases, `jobs` at once, each stopped after `timeout` seconds, added
    to `tally`: failures are kept, not raised, so that every run is counted. The counts so far
    are printed every `progress` runs (0: never). `only` names the commands to run (all when
    empty)."""
    # Each example runs every command once: hypothesis would draw some commands far more
    # often than others.
    commands = sorted(only or COMMANDS)

    @settings(FUZZ, max_examples=max(runs // len(commands), 1), derandomize=derandomize)
    @given(st.tuples(*(cases(template, command) for command in commands)))
    def campaign(drawn: tuple[Case, ...]) -> None:
        with ThreadPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(lambda case: play(case, template, timeout), drawn))
        for case, outcome in zip(drawn, outcomes, strict=True):
            tally.add(case.command, outcome)
        if progress and sum(tally.runs.values()) % progress < len(commands):
            print(tally.table(), flush=True)

    campaign()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--log", type=Path, help="write each failing run here, one JSON a line")
    parser.add_argument("--progress", type=int, default=200, help="print the counts so often")
    parser.add_argument(
        "--only", action="append", choices=sorted(COMMANDS), default=[], help="this command only"
    )
    options = parser.parse_args()
    with played_tournament() as template:
        tally = Tally(log=options.log)
        fuzz(
            tally,
            options.runs,
            options.jobs,
            options.timeout,
            template,
            derandomize=False,
            progress=options.progress,
            only=tuple(options.only),
        )
    print(tally.table())
    sys.exit(1 if tally.failures else 0)


if __name__ == "__main__":
    main()
