"""Where a report is written, and which file it may replace.

Without `-o`, a tournament folder's report goes into the folder (`DIR/report.html`) and a
record file's beside it under its name (`games.jsonl` -> `games.html`), so that the reports
of two tournaments never meet; several paths, or standard input, give `report.html` in the
current folder. Each page names what it was made from (`SOURCES_META`: the full paths as
given, `-` for standard input), so that a report can be written again over its own earlier
self, and never over another file (another tournament's report, or anything else) unless
the user says so (`--force`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path

from referee.errors import RefereeError
from referee.escaping import escaped
from referee.path_names import REPORT_FILE, STDIN

SOURCES_META = "referee-report-of"
"""The name of the page's `<meta>` element that lists its sources as JSON."""

_HEAD = 8192
"""How much of a file is read to find the `<meta>` element; it comes first in the head."""

_META = re.compile(rf'<meta name="{SOURCES_META}" content="([^"]*)">')


class ReportOutputError(RefereeError):
    """An output file the report will not replace without `--force`."""

    code = "report.output"


def sources(paths: Sequence[str | Path]) -> list[str]:
    """What a report is made from, as a page records it: each path in full, `-` as is, its
    bytes that are no UTF-8 as `\\xff` (as the page shows them)."""
    return [STDIN if str(path) == STDIN else escaped(str(Path(path).resolve())) for path in paths]


def default_output(paths: Sequence[str | Path]) -> Path:
    """Where a report of `paths` goes without `-o`: into a tournament folder, beside a record
    file (named after it), else `report.html` here."""
    if len(paths) == 1 and str(paths[0]) != STDIN:
        path = Path(paths[0])
        return path / REPORT_FILE if path.is_dir() else path.with_suffix(".html")
    return Path(REPORT_FILE)


def sources_meta(made_from: Sequence[str]) -> str:
    """The page's `<meta>` element naming its sources."""
    content = html.escape(json.dumps(list(made_from), ensure_ascii=False), quote=True)
    return f'<meta name="{SOURCES_META}" content="{content}">'


def written_for(path: Path) -> list[str] | None:
    """The sources of the report at `path`; None when it is no report (or one too old to say)."""
    try:
        with path.open("rb") as file:
            head = file.read(_HEAD).decode("utf-8", errors="replace")
    except OSError:
        return None
    found = _META.search(head)
    if found is None:
        return None
    try:
        made_from = json.loads(html.unescape(found.group(1)))
    except ValueError:
        return None
    if not isinstance(made_from, list) or not all(isinstance(item, str) for item in made_from):
        return None
    return made_from


def check_output(output: Path, made_from: Sequence[str]) -> None:
    """Raise ReportOutputError when `output` is there and is not the report of `made_from`
    (written again over its earlier self, a report is only brought up to date)."""
    if not output.exists():
        return
    if output.is_dir():
        raise ReportOutputError("is a folder; give -o a file", path=str(output))
    earlier = written_for(output)
    if earlier == list(made_from):
        return
    what = (
        "exists and is no report of these games"
        if earlier is None
        else "holds the report of " + ", ".join(earlier)
    )
    raise ReportOutputError(
        f"{what}; give --force to replace it, or -o another file", path=str(output)
    )
