"""How the docs' examples are read: blocks by language, commands with their lines, and the
doc-test directives, whose mistakes are named with the doc and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_examples import Block, Command, DocTestError, read_blocks

from tests.docs.helpers import Scratch

DOC = """# A doc

<!-- doc-test
replace "--games-per-pair 400" "--games-per-pair 4"
slow "--game trax"
skip "--dask" "needs a scheduler"
exit 1 "validate broken"
expect "validate broken" "invalid"
-->
```sh
referee tournament run --game thax --games-per-pair 400 \\
    --out t1        # a comment
# a comment line
referee tournament run --game trax --out t2 | tail -1
referee tournament run --out t3 --dask tcp://x:1
referee validate broken.jsonl < in.jsonl
```

```toml
game = "thax"
```

```console
$ referee bots
thax:
  random       a uniformly random legal move
$ referee perft --game thax \\
>   --depth 1
1	54
```
"""


def _read(tmp_path: Path, text: str) -> list[Block]:
    doc = tmp_path / "doc.md"
    doc.write_text(text)
    return read_blocks(doc)


def test_commands_directives_and_languages(tmp_path: Path) -> None:
    first, second = _read(tmp_path, DOC)
    assert [(c.line, c.text) for c in first.commands] == [
        (11, "referee tournament run --game thax --games-per-pair 400 --out t1        # a comment"),
        (14, "referee tournament run --game trax --out t2 | tail -1"),
        (15, "referee tournament run --out t3 --dask tcp://x:1"),
        (16, "referee validate broken.jsonl < in.jsonl"),
    ]
    assert "--games-per-pair 4 --out t1" in first.commands[0].run
    assert [c.slow for c in first.commands] == [False, True, False, False]
    assert [c.skip for c in first.commands] == ["", "", "needs a scheduler", ""]
    assert [c.exit for c in first.commands] == [0, 0, 0, 1]
    assert [c.expect for c in first.commands] == [[], [], [], ["invalid"]]
    assert [c.text for c in second.commands] == [
        "referee bots",
        "referee perft --game thax --depth 1",
    ]
    assert second.commands[0].where.endswith("doc.md:24")


@pytest.mark.parametrize(
    ("directive", "message"),
    [
        ('replace "--nothing" "x"', "doc.md:5: doc-test replace '--nothing' matches no command"),
        ('frobnicate "x"', "doc.md:5: unknown doc-test directive 'frobnicate'"),
        ('skip "--out"', "doc.md:5: doc-test directive 'skip \"--out\"': wrong arguments"),
    ],
)
def test_a_wrong_directive_is_named_with_its_doc_and_line(
    tmp_path: Path, directive: str, message: str
) -> None:
    text = f"x\n<!-- doc-test\n{directive}\n-->\n```sh\nreferee tournament run --out t1\n```\n"
    with pytest.raises(DocTestError) as raised:
        _read(tmp_path, text)
    assert message in str(raised.value)


def test_a_file_no_placeholder_provides_is_named(tmp_path: Path) -> None:
    (tmp_path / "placeholders").mkdir()
    (tmp_path / "scratch").mkdir()
    doc = tmp_path / "doc.md"
    command = Command(doc, 7, "referee validate nowhere.jsonl", "referee validate nowhere.jsonl")
    scratch = Scratch(Block(doc, 6, [command]), tmp_path / "scratch", tmp_path / "placeholders")
    with pytest.raises(AssertionError, match=r"doc.md:7: .*names nowhere.jsonl, which neither"):
        scratch.provide(command)
