"""Fuzzing every reader: whatever the bytes, the validator gives diagnostics, never a traceback
(issue 6). Valid samples of each format are mutated, cut short and replaced by noise."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.validator.check import validate_stream
from tests.fuzzing import mutated

SAMPLES = Path(__file__).parent / "samples"
FILES = sorted(SAMPLES.iterdir())
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reports_of(data: bytes, name: str) -> list:
    stream = io.BufferedReader(io.BytesIO(data))
    reports = list(validate_stream(stream, name, Path(name)))
    assert reports, "every input gets at least one verdict"
    for report in reports:
        assert report.valid == (not report.diagnostics)
        for diagnostic in report.diagnostics:
            assert diagnostic.code and diagnostic.message
    return reports


@pytest.mark.parametrize("sample", FILES, ids=[f.name for f in FILES])
def test_the_samples_are_valid(sample: Path) -> None:
    assert all(report.valid for report in reports_of(sample.read_bytes(), sample.name))


@pytest.mark.parametrize("sample", FILES, ids=[f.name for f in FILES])
@FUZZ
@given(data=st.data())
def test_mutated_files_give_diagnostics_not_tracebacks(sample: Path, data: st.DataObject) -> None:
    reports_of(data.draw(mutated(sample.read_bytes())), sample.name)


@pytest.mark.parametrize("sample", FILES, ids=[f.name for f in FILES])
@FUZZ
@given(cut=st.floats(0, 1))
def test_files_cut_short_give_diagnostics(sample: Path, cut: float) -> None:
    content = sample.read_bytes()
    reports_of(content[: int(len(content) * cut)], sample.name)


@pytest.mark.parametrize("suffix", sorted({f.suffix for f in FILES} | {".txt", ""}))
@FUZZ
@given(noise=st.binary(max_size=2000))
def test_noise_gives_diagnostics(suffix: str, noise: bytes) -> None:
    reports_of(noise, f"noise{suffix}")


@FUZZ
@given(depth=st.integers(1, 200_000), opener=st.sampled_from([b"[", b'{"a":']))
def test_deeply_nested_json_gives_a_diagnostic(depth: int, opener: bytes) -> None:
    reports_of(opener * depth, "deep.json")
