"""A format added to a registry is one entry, and the command line offers it: the choices
of `ratings --format`, `export --format` and `stats --format` and the names of `convert --to`
are the registries'. Each run registers its formats in a fresh interpreter, then runs `referee`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).parents[1] / "validator" / "samples" / "thax.jsonl"

# What a program that uses referee as a library would write: a format of each kind, its code
# in the program itself, registered before the command line is built.
REGISTER = """
import sys
from referee.archive.choices import STATS_OUTPUTS
from referee.ratings.formats import RATING_OUTPUTS, RESULT_EXPORTS
from referee.records.formats import RECORD_FORMATS
from referee.records.formats.base import FileFormat
from referee.records.io import iter_jsonl, record_to_json
from referee.registry import OutputFormat


def tsv(tables):
    rows = (row for table in tables for row in table.standings.itertuples())
    return "".join(f"{row.bot}\\t{row.games}\\n" for row in rows)


def pairs(games, out):
    count = 0
    for record, _, _ in games:
        out.write(" v ".join(player.name for player in record.players) + "\\n")
        count += 1
    return count


def counts(groups):
    return "".join(f"{group['game']} {group['games']}\\n" for group in groups)


class Lines(FileFormat):
    def sniff(self, head):
        return head.startswith(b"LINES\\n")

    def read(self, stream):
        stream.readline()
        return iter_jsonl(stream)

    def write(self, records, stream):
        stream.write("LINES\\n")
        stream.writelines(record_to_json(record) + "\\n" for record in records)


RATING_OUTPUTS.add(OutputFormat("tsv", "__main__:tsv"))
RESULT_EXPORTS.add(OutputFormat("pairs", "__main__:pairs"))
STATS_OUTPUTS.add(OutputFormat("counts", "__main__:counts"))
RECORD_FORMATS.add(OutputFormat("lines", "__main__:Lines", extensions=(".lines",), detect=0))
sys.argv = ["referee", *sys.argv[1:]]
from referee.cli.app import main

main()
"""


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", REGISTER, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def words(text: str) -> str:
    """The help as one line: where it wraps depends on the width."""
    return " ".join(text.split())


def test_a_registered_rating_output_is_a_choice_of_ratings() -> None:
    helped = referee("ratings", "--help")
    assert "--format [table|csv|markdown|json|html|tsv]" in words(helped.stdout), helped.stderr
    done = referee("ratings", str(SAMPLE), "--format", "tsv", "--no-cache")
    assert done.returncode == 0, done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines()]
    assert rows and all(len(row) == 2 and row[1].isdigit() for row in rows)


def test_a_registered_export_is_a_choice_of_export(tmp_path: Path) -> None:
    assert "--format [pgn|csv|pairs]" in words(referee("export", "--help").stdout)
    out = tmp_path / "pairs.txt"
    done = referee("export", str(SAMPLE), "--format", "pairs", "-o", str(out))
    assert done.returncode == 0, done.stderr
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    assert done.stdout == f"{len(lines)} games written to {out}\n"
    assert len(out.read_text().splitlines()) == len(lines)
    assert " v " in out.read_text()


def test_a_registered_stats_output_is_a_choice_of_stats() -> None:
    assert "--format [text|markdown|csv|json|counts]" in words(referee("stats", "--help").stdout)
    done = referee("stats", str(SAMPLE), "--format", "counts")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"thax {len(SAMPLE.read_text(encoding='utf-8').splitlines())}\n"


def test_a_registered_record_format_is_written_and_read(tmp_path: Path) -> None:
    assert "json, jsonl, pdn, trax, mat or lines" in words(referee("convert", "--help").stdout)
    target = tmp_path / "games.lines"
    done = referee("convert", str(SAMPLE), str(target))
    assert done.returncode == 0, done.stderr
    assert target.read_text(encoding="utf-8").startswith("LINES\n")
    # read back by its content: a name that is no format's extension
    unnamed = tmp_path / "games.txt"
    target.rename(unnamed)
    checked = referee("validate", "--json", str(unnamed))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    reports = [json.loads(line) for line in checked.stdout.splitlines()]
    assert len(reports) == len(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert all(report["valid"] for report in reports)
