"""Every reference in the project's Markdown resolves inside the repository: links (files
and the headings they point at, by GitHub's anchors), paths named in the text, and nothing
sends the reader to a file the repository does not carry (the rules once lived outside it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_OUTSIDE = re.compile(r"RULES\.md|/work/|\.\./shared\b|shared rules")
_TOP = ("referee", "tests", "docs", "benchmarks", "examples", "schemas", ".ci")
_ROOT_PATH = re.compile(r"(?<![\w./~$-])((?:" + "|".join(map(re.escape, _TOP)) + r")/[\w./-]*)")
_CODE_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*/?")


def documents(root: Path) -> list[Path]:
    """The Markdown a reader of the project is sent to."""
    docs = sorted((root / "docs").rglob("*.md"))
    return [root / "README.md", *docs, root / "tests" / "fixtures" / "README.md"]


def _unfenced(text: str) -> str:
    """The text with every fenced code block blanked, lines kept where they were."""
    lines, fence = [], ""
    for line in text.split("\n"):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            lines.append("")
        elif opening:
            fence = opening.group(1)
            lines.append("")
        else:
            lines.append(line)
    return "\n".join(lines)


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text as shown, lower case, punctuation dropped,
    spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"[^\w\- ]", "", text.replace("`", "").lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings; a repeated one gets `-1`, `-2`, ..."""
    found: set[str] = set()
    for line in _unfenced(path.read_text(encoding="utf-8")).split("\n"):
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(1))
            name, n = base, 0
            while name in found:
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def _inside(path: Path, root: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


def problems(doc: Path, root: Path) -> list[str]:
    """What in `doc` does not resolve inside `root`, one line each (`file:line: ...`)."""
    text = doc.read_text(encoding="utf-8")
    where = doc.relative_to(root)
    found: list[str] = []

    def report(position: int, message: str) -> None:
        found.append(f"{where}:{text.count(chr(10), 0, position) + 1}: {message}")

    prose = _CODE_SPAN.sub(_blank, _unfenced(text))
    for link in _LINK.finditer(prose):
        target = link.group(1)
        if _SCHEME.match(target):
            continue
        name, _, anchor = target.partition("#")
        path = doc.parent / name if name else doc
        if not name and not anchor:
            report(link.start(), "a link with no target")
        elif name.startswith("/") or not _inside(path, root):
            report(link.start(), f"{target} points outside the repository")
        elif not path.exists():
            report(link.start(), f"{target}: no such file")
        elif anchor and (path.suffix != ".md" or anchor not in anchors(path)):
            report(link.start(), f"{target}: no heading with the anchor #{anchor}")
    for mention in _ROOT_PATH.finditer(text):
        name = mention.group(1).rstrip(".")
        if not (root / name).exists():
            report(mention.start(), f"{name}: no such file or folder in the repository")
    packages = {p.name for p in (root / "referee").iterdir() if (p / "__init__.py").exists()}
    for span in _CODE_SPAN.finditer(_unfenced(text)):
        code = span.group(2).strip()
        head = code.split("/", 1)[0]
        named = "/" in code and head in packages and _CODE_PATH.fullmatch(code)
        if named and not (root / "referee" / code).exists():
            report(span.start(), f"{code}: no such file or folder in referee/")
    for outside in _OUTSIDE.finditer(text):
        report(outside.start(), f"{outside.group(0)!r} sends the reader outside the repository")
    return found


@pytest.mark.parametrize("doc", documents(ROOT), ids=lambda doc: str(doc.relative_to(ROOT)))
def test_every_reference_resolves_inside_the_repository(doc: Path) -> None:
    assert problems(doc, ROOT) == []


def test_no_source_names_a_rules_file_outside_the_repository() -> None:
    """Docstrings, messages and comments point at docs/rules/, not at the old outside file."""
    sources = [*(ROOT / "referee").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    named = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1)
        if _OUTSIDE.search(line)
    ]
    assert named == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("The `.mat` (Jellyfish match text) format", "the-mat-jellyfish-match-text-format"),
        ("Notation [project rule]", "notation-project-rule"),
        ("Double six: a thax", "double-six-a-thax"),
        ("Selecting games (`referee select`)", "selecting-games-referee-select"),
        ("See [the rules](rules/README.md) first", "see-the-rules-first"),
        ("Winning: loops_and lines", "winning-loops_and-lines"),
    ],
)
def test_slug_is_githubs_anchor(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def _repository(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "referee" / "games").mkdir(parents=True, exist_ok=True)
    (tmp_path / "referee" / "games" / "__init__.py").write_text("")
    return tmp_path


def test_a_good_document_has_no_problem(tmp_path: Path) -> None:
    root = _repository(
        tmp_path,
        {
            "docs/a.md": "# A\n## Two words\n## Two words\n```\n# not a heading\n```\n",
            "docs/b.md": (
                "See [a](a.md#two-words), [again](a.md#two-words-1), [here](#b),\n"
                "[the web](https://example.org/x.md), `docs/a.md`, `games/`, and\n"
                "```sh\nreferee --out docs/a.md [x](nowhere.md)\n```\n# B\n"
            ),
        },
    )
    assert problems(root / "docs" / "b.md", root) == []


def test_each_broken_reference_is_named_with_its_line(tmp_path: Path) -> None:
    root = _repository(
        tmp_path,
        {
            "docs/a.md": "# A\n",
            "outside.md": "# Outside\n",
            "docs/b.md": (
                "[gone](gone.md)\n"
                "[wrong heading](a.md#b)\n"
                "[up and out](../../x.md) [also out](/etc/passwd)\n"
                "see the shared rules in RULES.md\n"
                "`docs/missing.md` and tests/none.py\n"
                "`games/none.py` and [no anchor here](#nothing)\n"
                "[split over\nlines](nothing.md)\n"
            ),
        },
    )
    assert problems(root / "docs" / "b.md", root) == [
        "docs/b.md:1: gone.md: no such file",
        "docs/b.md:2: a.md#b: no heading with the anchor #b",
        "docs/b.md:3: ../../x.md points outside the repository",
        "docs/b.md:3: /etc/passwd points outside the repository",
        "docs/b.md:6: #nothing: no heading with the anchor #nothing",
        "docs/b.md:7: nothing.md: no such file",
        "docs/b.md:5: docs/missing.md: no such file or folder in the repository",
        "docs/b.md:5: tests/none.py: no such file or folder in the repository",
        "docs/b.md:6: games/none.py: no such file or folder in referee/",
        "docs/b.md:4: 'shared rules' sends the reader outside the repository",
        "docs/b.md:4: 'RULES.md' sends the reader outside the repository",
    ]
