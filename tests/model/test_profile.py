"""The profile's rules: what it refuses, and what renaming, deleting and unit changes keep."""

import pytest

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.units import (
    TimeUnit,
    format_number,
    format_speedup,
    parse_bandwidth,
    parse_bytes,
    parse_speedup,
    parse_time,
    parse_time_text,
)
from amdahl_desk.model.values import ParseError

from ..helpers import training


@pytest.mark.parametrize(
    "bad",
    [
        [Component("a", -1)],
        [Component("a", float("nan"))],
        [Component("a", float("inf"))],
        [Component("", 1)],
        [Component("a", 1), Component("A", 2)],
    ],
)
def test_refuses_bad_components(bad):
    with pytest.raises(ProfileError):
        Profile(bad)


def test_refuses_bad_optimizations():
    comps = [Component("a", 1)]
    for opt in (
        Optimization("o", ("a",), 0),
        Optimization("o", ("a",), -2),
        Optimization("o", ("zz",), 2),
        Optimization("o", (), 2),
        Optimization("o", ("a",), float("nan")),
    ):
        with pytest.raises(ProfileError):
            Profile(comps, [opt])


def test_all_problems_reported_at_once():
    with pytest.raises(ProfileError) as info:
        Profile([Component("a", -1), Component("a", 1)], [Optimization("o", ("b",), 0)])
    assert len(info.value.problems) == 4


def test_targets_match_case_insensitively_and_are_spelled_as_components():
    p = Profile([Component("GPU matmul", 1)], [Optimization("o", ("gpu MATMUL", "GPU matmul"), 2)])
    assert p.optimizations[0].targets == ("GPU matmul",)


def test_rename_keeps_optimizations():
    p = training()
    row = p.index_of("GPU matrix multiplications")
    p.set_component(row, Component("GEMMs", 600))
    assert p.optimizations[0].targets == ("GEMMs",)
    assert p.index_of("gemms") == row


def test_edit_refused_leaves_profile_unchanged():
    p = training()
    before = p.copy()
    with pytest.raises(ProfileError, match="duplicate"):
        p.set_component(0, Component("Other GPU kernels", 1))
    with pytest.raises(ProfileError, match="negative"):
        p.set_component(0, Component("x", -5))
    assert p == before


def test_cannot_delete_a_targeted_component():
    p = training()
    with pytest.raises(ProfileError, match="targeted by Reduced precision"):
        p.remove_components(1)
    p.remove_components(0)
    assert len(p.components) == 4


def test_unit_change_converts_times():
    p = training(target_time=600)
    p.set_unit(TimeUnit.S)
    assert p.components[1].time == pytest.approx(0.6)
    assert p.settings.target_time == pytest.approx(0.6)


def test_bad_settings():
    for s in (
        Settings(target_time=0),
        Settings(baseline_gpus=0),
        Settings(gpu_counts=()),
        Settings(parallel_fraction=1.5),
        Settings(ring_bandwidth=0),
    ):
        with pytest.raises(ProfileError):
            Profile([Component("a", 1)], settings=s)


class TestParsing:
    @pytest.mark.parametrize(
        ("text", "value", "unit"),
        [
            ("100 ms", 100, TimeUnit.MS),
            ("1,000.5 ms", 1000.5, TimeUnit.MS),
            ("1,000,000 ms", 1e6, TimeUnit.MS),
            ("0.9 s", 0.9, TimeUnit.S),
            ("250 us", 250, TimeUnit.US),
            ("250 µs", 250, TimeUnit.US),
            ("12ns", 12, TimeUnit.NS),
            ("120", 120, None),
            ("1 000 ms", 1000, TimeUnit.MS),
            ("2.5 seconds", 2.5, TimeUnit.S),
        ],
    )
    def test_times(self, text, value, unit):
        assert parse_time_text(text) == (pytest.approx(value), unit)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("fast", '"fast" is not a time; expected a number or a value like "120 ms"'),
            ("-5 ms", "negative"),
            ("nan", "not a finite time"),
            ("inf", "not a finite time"),
            ("5 parsecs", 'unknown unit "parsecs"'),
            ("", "not a time"),
        ],
    )
    def test_bad_times(self, text, message):
        with pytest.raises(ParseError, match=message.replace("(", r"\(")):
            parse_time_text(text)

    def test_conversion(self):
        assert parse_time("0.9 s", TimeUnit.MS) == pytest.approx(900)

    @pytest.mark.parametrize("text", ["4", "4x", "4×", "4 X", "x4"])
    def test_speedups(self, text):
        assert parse_speedup(text) == 4

    @pytest.mark.parametrize("text", ["0", "-2", "fast", "nan", ""])
    def test_bad_speedups(self, text):
        with pytest.raises(ParseError):
            parse_speedup(text)

    def test_sizes_and_bandwidths(self):
        assert parse_bytes("1.4 GB") == 1.4e9
        assert parse_bytes("2 GiB") == 2 * 2**30
        assert parse_bandwidth("100 GB/s") == 1e11
        assert parse_bandwidth("400 Gb/s") == parse_bandwidth("400 Gbit/s") == 5e10
        with pytest.raises(ParseError):
            parse_bandwidth("fast")

    def test_formatting(self):
        assert format_number(1000) == "1,000"
        assert format_number(549.5) == "549.5"
        assert format_speedup(1 / 0.55) == "1.82×"
        assert format_speedup(4.0) == "4×"
        assert format_speedup(float("inf")) == "∞"
