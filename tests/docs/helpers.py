"""The files the docs' examples name (games.jsonl, archive/, t1, ./mybot, ...), made once by
small runs of referee itself, and each example block's scratch folder that they are copied
into as its commands ask for them."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

from doc_examples import ROOT, Block, Command, run

PLACEHOLDERS = [
    # t1: a THAX round robin of random and greedy (its game 17 has a turn 30)
    "referee tournament run --game thax --bots random,greedy --games-per-pair 20 --seed 1"
    " --out t1 --quiet",
    # t2: with an external program named mybot
    "cp ../examples/bots/random_bot.py mybot && chmod +x mybot",
    "referee tournament run --game thax --bots random,greedy --external mybot=./mybot"
    " --games-per-pair 2 --seed 2 --out t2 --quiet",
    # t3: Takhteh matches
    "referee tournament run --game takhteh --bots random,greedy --option match=3"
    " --games-per-pair 2 --seed 3 --out t3 --quiet",
    "mkdir bg && cp t3/games.jsonl bg/",
    "referee convert t3/games.jsonl matches/ --to mat && cp matches/$(ls matches | head -1)"
    " match.mat",
    # Thai checkers games in every form the examples read
    "referee tournament run --game thai --bots random,greedy --games-per-pair 4 --seed 4"
    " --out thai-games --quiet",
    "cp thai-games/games.jsonl games.jsonl && cp games.jsonl more.jsonl"
    " && mkdir old && cp games.jsonl old/",
    "referee select games.jsonl --first 1 -o game.json && cp game.json more.json",
    "referee select games.jsonl --first 1 -o game.pdn",
    "referee convert games.jsonl thai.pdn && cp thai.pdn messy.pdn",
    # Trax games, and one as a game list
    "referee tournament run --game trax --bots greedy,greedy --games-per-pair 4 --seed 5"
    " --out trax-games --quiet",
    "mkdir trax && cp trax-games/games.jsonl trax/",
    "referee select trax/ --first 1 -o game.trx",
    # archive/: every game
    "mkdir archive && cp t1/games.jsonl archive/thax.jsonl && cp t2/games.jsonl"
    " archive/mybot.jsonl && cp t3/games.jsonl archive/takhteh.jsonl"
    " && cp games.jsonl archive/thai.jsonl && cp trax/games.jsonl archive/trax.jsonl",
    # sprt: a THAX SPRT that has decided (docs/tournaments.md extends it)
    "referee tournament run --game thax --bots random,greedy --sprt elo0=0,elo1=100"
    " --games-per-pair 2000 --out sprt -q",
    # the example configuration with its bot
    "cp ../examples/tournament.toml . && cp -r ../examples/bots bots",
    "rm -r thai-games trax-games",
]
"""Shell commands run in order in an empty folder beside a link to the repository (`..`
in them)."""

REPOSITORY_PATHS = ("referee", "tests", "examples")
"""What an example may name as a path of the repository (it is run from its root): linked
into the scratch folder, never written."""

COMPANIONS = {"tournament.toml": ["bots"]}
"""What a placeholder names in turn: copied with it."""

OUTPUT_OPTIONS = {"-o", "--out", "--output", "--svg", "--plot", ">", ">>"}
FILE_NAME = (".jsonl", ".json", ".pdn", ".mat", ".trx", ".txt", ".toml", ".npz", ".csv", ".pgn")


def make_placeholders(folder: Path) -> Path:
    """Run PLACEHOLDERS in `folder`/files; that folder."""
    files = folder / "files"
    files.mkdir(parents=True)
    (folder / "examples").symlink_to(ROOT / "examples")
    for text in PLACEHOLDERS:
        done = run(Command(ROOT, 0, text, text), files, timeout=600)
        assert done.returncode == 0, f"{text}: {done.stdout}{done.stderr}"
    return files


def _words(command: str) -> tuple[list[str], set[str]]:
    """The words of a command that may name files it reads, and those it writes (after an
    output option, and the last argument of `convert`)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    reads, writes = [], set()
    for index, token in enumerate(tokens):
        if index and tokens[index - 1] in OUTPUT_OPTIONS:
            writes.add(token)
            continue
        for part in token.replace("=", " ").split():
            if not part.startswith("-"):
                reads.append(part)
    if "convert" in tokens:
        positional = [t for t in tokens[tokens.index("convert") + 1 :] if not t.startswith("-")]
        writes.update(positional[1:2])
    return [word for word in reads if word not in writes], writes


class Scratch:
    """A block's folder: its commands run there in order, each one's files copied in from
    the placeholders first when no earlier command made them."""

    def __init__(self, block: Block, folder: Path, placeholders: Path) -> None:
        self.block = block
        self.folder = folder
        self.placeholders = placeholders
        self.done: dict[int, subprocess.CompletedProcess[str]] = {}
        """What the commands that ran did, by their lines."""

    def provide(self, command: Command) -> None:
        reads, writes = _words(command.run)
        for word in sorted(writes):
            top = word.split("/")[0]
            assert top not in REPOSITORY_PATHS, (
                f"{command.where}: {command.run!r} would write {word} into the repository: "
                "give it another path with a doc-test `replace`"
            )
        for word in reads:
            word = word.removeprefix("./")
            top = word.split("/")[0].split("*")[0]
            target = self.folder / top
            if top in ("", ".", "..") or word.startswith("/") or target.exists():
                continue
            source = self.placeholders / top
            if "/" not in word and source.is_dir() and not (source / "tournament.json").exists():
                continue  # `--game trax` names no folder; `trax/` and a tournament's `t1` do
            for companion in COMPANIONS.get(top, []):
                shutil.copytree(self.placeholders / companion, self.folder / companion)
            if source.is_dir():
                shutil.copytree(source, target, symlinks=True)
            elif source.exists():
                shutil.copy2(source, target)
            elif top in REPOSITORY_PATHS and (ROOT / word).exists():
                target.symlink_to(ROOT / top)
            elif word.endswith(FILE_NAME) and not (self.folder / word).exists():
                raise AssertionError(
                    f"{command.where}: {command.text!r} names {word}, which neither an earlier "
                    "command of its block makes nor tests/docs/helpers.py's PLACEHOLDERS do"
                )

    def run(self, command: Command, timeout: float) -> subprocess.CompletedProcess[str]:
        """What `command` did, run after the block's earlier commands (left out: the skipped
        ones, and the slow ones before a fast one: a command that needs what a slow one makes
        is slow too); each command runs once, whatever order the tests come in."""
        index = self.block.commands.index(command)
        for step in self.block.commands[: index + 1]:
            if step.skip or (step.slow and not command.slow) or step.line in self.done:
                continue
            self.provide(step)
            self.done[step.line] = run(step, self.folder, timeout)
        return self.done[command.line]
