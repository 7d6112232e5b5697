"""`write_atomically`: the file is replaced whole, or left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.files import write_atomically


def test_the_file_is_replaced_once_the_block_ends(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"old\n")
    with write_atomically(path) as stream:
        stream.write(b"new\n")
        assert path.read_bytes() == b"old\n"  # nothing seen before the end
    assert path.read_bytes() == b"new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_an_error_leaves_the_file_as_it_was_and_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"old\n")
    with pytest.raises(RuntimeError), write_atomically(path) as stream:
        stream.write(b"half")
        raise RuntimeError
    assert path.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
