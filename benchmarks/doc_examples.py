"""The shell examples of README.md and docs/*.md, and the outputs the docs quote from them.

Run: .venv/bin/python benchmarks/doc_examples.py [--write] [NAME...]

Every ```sh (or bash, shell, console) block of the docs is a list of commands, run by
tests/docs in a scratch folder. An HTML comment right before a block, which readers do not
see, says how the suite runs it, one directive a line:

    <!-- doc-test
    replace "--games-per-pair 400" "--games-per-pair 4"
    slow "--game takhteh"
    skip "--dask" "needs a Dask scheduler at that address"
    exit 1 "validate broken.jsonl"
    xfail "referee foo" "issue 12: foo crashes"
    output bots-thax "ratings bots-thax"
    expect "perft --game trax --depth 5" "246888"
    -->

and `<!-- doc-test record -->` before a ```json block makes it a record the validator must
find valid.

`replace OLD NEW` rewrites every command of the block that holds OLD (sizes reduced); the
other directives pick the commands holding a text as written in the doc (every command
when none is given): `slow` ones run only with `-m slow`, `skip` ones never run, `exit N`
ones must exit N, not 0, `xfail` ones are expected to fail for the reason given, `expect
PATTERN TEXT` says what the command must print (a figure the doc quotes in a comment). `output
NAME` makes the command's standard output (the block's last command when none is given) the
text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in the same doc: this script
writes it there (its Markdown headings one level down, under the doc's own), and the
command's test fails when the text there is not what it prints now. Such a command must be
deterministic: a fixed seed, and bots without a time limit.

Without `--write` the script prints the outputs; NAME... limits it to those sections.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from common import write_section

ROOT = Path(__file__).resolve().parents[1]
SHELL = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
KINDS = {"replace", "slow", "skip", "exit", "xfail", "output", "expect"}


def shown(doc: Path) -> str:
    """A doc's path as messages give it: from the repository's root."""
    return str(doc.relative_to(ROOT)) if doc.is_relative_to(ROOT) else str(doc)


def doc_files(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


class DocTestError(Exception):
    """A doc-test directive that cannot be read or matches nothing."""


@dataclass(frozen=True)
class Directive:
    kind: str
    pattern: str
    """The text of the commands it applies to ("" for all), as written in the doc."""
    value: str = ""
    """replace: the new text; skip, xfail: the reason; exit: the code; output: the name."""


@dataclass
class Command:
    doc: Path
    line: int
    text: str
    """As written in the doc (continuations joined)."""
    run: str
    """What runs: the text with the block's replacements."""
    slow: bool = False
    skip: str = ""
    xfail: str = ""
    exit: int = 0
    output: str = ""
    expect: list[str] = field(default_factory=list)
    """Texts its output must hold (a figure the doc quotes beside it)."""

    @property
    def where(self) -> str:
        return f"{shown(self.doc)}:{self.line}"


@dataclass
class Block:
    doc: Path
    line: int
    """The line of the opening fence."""
    commands: list[Command] = field(default_factory=list)
    record: str = ""
    """A ```json block marked `<!-- doc-test record -->`: a whole record, valid."""


def _directives(comment: str, where: str) -> list[Directive]:
    found = []
    for text in comment.strip().splitlines():
        if not text.strip():
            continue
        try:
            words = shlex.split(text)
        except ValueError as error:
            raise DocTestError(f"{where}: doc-test directive {text.strip()!r}: {error}") from None
        kind, args = words[0], words[1:]
        if kind not in KINDS:
            raise DocTestError(f"{where}: unknown doc-test directive {kind!r} (one of {KINDS})")
        if kind in ("replace", "skip", "xfail", "expect") and len(args) == 2:
            found.append(Directive(kind, args[0], args[1]))
        elif kind in ("exit", "output") and len(args) in (1, 2):
            found.append(Directive(kind, args[1] if len(args) == 2 else "", args[0]))
        elif kind == "slow" and len(args) <= 1:
            found.append(Directive(kind, args[0] if args else ""))
        else:
            raise DocTestError(f"{where}: doc-test directive {text.strip()!r}: wrong arguments")
    return found


def _commands(lines: list[str], first: int) -> list[tuple[int, str]]:
    """The block's commands with their lines: `$ ` prompts dropped, `\\` continuations joined,
    blank and comment-only lines left out. In a block with prompts only the lines after a
    prompt (and their continuations, `> ` dropped) are commands, the others their output."""
    commands: list[tuple[int, str]] = []
    pending: list[str] = []
    start = first
    prompted = any(line.startswith("$ ") for line in lines)
    for number, raw in enumerate(lines, first):
        text = raw.rstrip()
        if not pending:
            start = number
            if prompted and not text.startswith("$ "):
                continue
            text = text.removeprefix("$ ")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
        elif prompted:
            text = text.removeprefix("> ")  # the shell's continuation prompt
        if text.endswith("\\"):
            pending.append(text[:-1].rstrip())
            continue
        pending.append(text.strip() if len(pending) else text)
        commands.append((start, " ".join(part.strip() for part in pending)))
        pending = []
    if pending:
        commands.append((start, " ".join(part.strip() for part in pending)))
    return commands


def read_blocks(doc: Path) -> list[Block]:
    """The shell blocks of `doc` with their commands, directives applied."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    name = shown(doc)
    blocks = []
    comment = ""
    index = 0
    while index < len(lines):
        text = lines[index].strip()
        opening = FENCE.match(lines[index])
        if text.startswith("<!-- doc-test"):
            end = index
            while "-->" not in lines[end] and end + 1 < len(lines):
                end += 1
            comment = "\n".join(lines[index : end + 1]).strip()
            comment = comment.removeprefix("<!-- doc-test").removesuffix("-->")
            index = end + 1
            continue
        if not opening:
            if text:
                comment = ""
            index += 1
            continue
        fence = opening.group(2)
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        where = f"{name}:{index + 1}"
        if opening.group(3) in SHELL:
            block = Block(doc, index + 1)
            for line, command in _commands(lines[index + 1 : end], index + 2):
                block.commands.append(Command(doc, line, command, command))
            _apply(block, _directives(comment, where), where)
            blocks.append(block)
        elif opening.group(3) == "json" and comment.split() == ["record"]:
            blocks.append(Block(doc, index + 1, record="\n".join(lines[index + 1 : end])))
        elif comment:
            raise DocTestError(f"{where}: a doc-test directive before a block that is not shell")
        comment = ""
        index = end + 1
    return blocks


def _apply(block: Block, directives: list[Directive], where: str) -> None:
    for directive in directives:
        chosen = [c for c in block.commands if directive.pattern in c.text]
        if not chosen:
            raise DocTestError(
                f"{where}: doc-test {directive.kind} {directive.pattern!r} matches no command"
            )
        if directive.kind == "output" and not directive.pattern:
            chosen = chosen[-1:]
        for command in chosen:
            if directive.kind == "replace":
                command.run = command.run.replace(directive.pattern, directive.value)
            elif directive.kind == "slow":
                command.slow = True
            elif directive.kind == "skip":
                command.skip = directive.value
            elif directive.kind == "xfail":
                command.xfail = directive.value
            elif directive.kind == "expect":
                command.expect.append(directive.value)
            elif directive.kind == "exit":
                command.exit = int(directive.value)
            else:
                command.output = directive.value


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [block for doc in doc_files(root) for block in read_blocks(doc)]


def environment(home: Path) -> dict[str, str]:
    """The environment a command runs in: this Python's scripts first on PATH (`referee`,
    `python3`), this checkout first on PYTHONPATH, and `home` as HOME, so that an example that
    writes a user's files (`--install-completion` adds to `~/.bashrc`) writes them there."""
    env = dict(os.environ)
    env["HOME"] = str(home)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def run(command: Command, folder: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run one command in `folder` with bash (pipes, redirections and comments as a reader's
    shell takes them; a pipeline fails when any part fails). Bash stays the command's parent,
    as a reader's shell does (`bash -c` would replace itself by a lone command), so that what
    asks which shell runs it (`referee --install-completion`) finds bash."""
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", f"{command.run}\nexit $?"],
        cwd=folder,
        env=environment(folder),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def section(stdout: str) -> str:
    """A command's output as it goes between its markers: Markdown headings one level down."""
    return re.sub(r"^(#+) ", r"#\1 ", stdout.strip(), flags=re.MULTILINE)


def quoted(doc: Path, name: str) -> str:
    """The text between the markers of section `name` in `doc`."""
    text = doc.read_text(encoding="utf-8")
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    if start not in text or end not in text:
        raise DocTestError(f"{shown(doc)}: no markers {start} ... {end}")
    return text.partition(start)[2].partition(end)[0].strip()


def outputs(blocks: list[Block]) -> list[tuple[Block, Command]]:
    """The commands whose output a doc quotes, with their blocks."""
    return [(b, c) for b in blocks for c in b.commands if c.output]


def produce(block: Block, command: Command, folder: Path, timeout: float = 3600) -> str:
    """Run the block's commands up to `command` in `folder` (but the skipped ones); the
    section text it prints."""
    for step in block.commands[: block.commands.index(command) + 1]:
        if step.skip:
            continue
        done = run(step, folder, timeout)
        if done.returncode != step.exit:
            raise DocTestError(
                f"{step.where}: {step.run!r} exited {done.returncode}: {done.stderr.strip()}"
            )
    return section(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="only these sections")
    parser.add_argument("--write", action="store_true", help="write them into the docs")
    options = parser.parse_args()
    for block, command in outputs(all_blocks()):
        if options.names and command.output not in options.names:
            continue
        with tempfile.TemporaryDirectory() as folder:
            text = produce(block, command, Path(folder))
        print(f"{command.where} {command.output}:\n{text}\n")
        if options.write:
            write_section(command.output, text, command.doc)


if __name__ == "__main__":
    main()
