"""What the model says of inputs that cannot be meant: a clamped ring model, N0 above every count, names in pieces."""

import math
import re

import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import (
    MAX_GPUS,
    Component,
    Optimization,
    OverheadModel,
    Profile,
    Scaling,
    Settings,
    one_line,
)
from amdahl_desk.present.analysis_warnings import warning_texts


def ring_profile(comm_ms: float, n0: int) -> Profile:
    comps = [Component("compute", 100, Scaling.PARALLEL), Component("all-reduce", comm_ms, Scaling.COMMUNICATION)]
    settings = Settings(
        baseline_gpus=n0,
        gpu_counts=(1, 2, 4, 8, 16),
        overhead_model=OverheadModel.RING,
        ring_latency=5e-6,
        ring_message_bytes=1e9,
        ring_bandwidth=100e9,
    )
    return Profile(comps, [], settings)


def ring_ms(n: int) -> float:
    """2(N−1)α + 2(N−1)/N · bytes/bandwidth, in ms, by hand."""
    return (2 * (n - 1) * 5e-6 + 2 * (n - 1) / n * 1e9 / 100e9) * 1e3


def test_ring_model_clamp_is_a_warning_naming_both_times():
    # Measured 1 ms at 8 GPUs, but the ring model itself says 17.57 ms there: below N0 it would go negative.
    assert ring_ms(8) == pytest.approx(17.57)
    assert 1 + ring_ms(4) - ring_ms(8) < 0 < 1 + ring_ms(16) - ring_ms(8)
    a = analyse(ring_profile(1, 8))
    [warning] = [w for w in warning_texts(a.warnings, a.unit) if "ring model" in w]
    assert "1 ms at N0 = 8 GPUs" in warning and "17.6 ms" in warning and "from 4 GPUs down" in warning
    times = dict(zip(a.scaling.gpus.tolist(), a.scaling.time.tolist(), strict=True))
    assert times[4] == pytest.approx(100 * 8 / 4)  # compute scaled, communication held at 0


def test_no_ring_warning_when_the_measurement_covers_the_model():
    a = analyse(ring_profile(30, 8))  # 30 ms > 17.57 ms
    assert not [w for w in warning_texts(a.warnings, a.unit) if "ring model" in w]
    a = analyse(ring_profile(1, 1))  # nothing below N0 = 1
    assert not [w for w in warning_texts(a.warnings, a.unit) if "ring model" in w]


def test_baseline_above_every_gpu_count_is_explained():
    p = Profile([Component("a", 10, Scaling.PARALLEL)], [], Settings(baseline_gpus=4096, gpu_counts=(1, 1024)))
    a = analyse(p)
    [warning] = warning_texts(a.warnings, a.unit)
    assert warning.startswith("Settings, Baseline GPUs: the times were measured on N0 = 4,096 GPUs")
    assert "up to 1,024" in warning


@pytest.mark.parametrize("settings", [Settings(baseline_gpus=MAX_GPUS + 1), Settings(gpu_counts=(1, 5_538_561_000))])
def test_absurd_gpu_counts_are_refused(settings):
    with pytest.raises(ProfileError, match="at most 10,000,000"):
        Profile([Component("a", 1)], [], settings)


@pytest.mark.parametrize(("name", "what"), [("a\nb", "a line break"), ("a\tb", "a tab"), ("a\x07b", "U+0007")])
def test_names_with_line_breaks_or_control_characters_are_refused(name, what):
    what = re.escape(what)
    with pytest.raises(ProfileError, match=what):
        Profile([Component(name, 1)])
    with pytest.raises(ProfileError, match=what):
        Profile([Component("a", 1)], [Optimization(name, ("a",), 2)])
    p = Profile([Component("a", 1)])
    with pytest.raises(ProfileError, match=what):
        p.set_component(0, Component(name, 1))


def test_unicode_spaces_are_fine_in_names():
    assert Profile([Component("a\u00a0b", 1), Component("c\u202fd", 1)]).components[0].name == "a\u00a0b"


def test_one_line():
    assert one_line("GPU\nmatmul") == "GPU matmul"
    assert one_line("a\r\n\tb\x01c") == "a b\ufffdc"
    assert math.isclose(len(one_line("plain")), 5)


@pytest.mark.parametrize("rows", [2, 100])  # a short list is checked row by row, a long one column by column first
def test_a_time_past_ten_to_the_fifteen_is_refused_naming_its_row(rows):
    from amdahl_desk.model.units import MAX_TIME

    comps = [Component(f"c{i}", 1.0) for i in range(rows - 1)] + [Component("huge", 1e16)]
    with pytest.raises(ProfileError) as info:
        Profile(comps)
    [problem] = info.value.problems
    assert problem.row == rows - 1 and problem.field == "time" and "too large" in problem.what
    assert Profile([Component("largest", MAX_TIME)]).components[0].time == 1e15  # the bound itself is a time


@pytest.mark.parametrize("rows", [2, 100])
@pytest.mark.parametrize("tiny", [5e-324, 2.2e-308, 9.9e-13])
def test_a_time_too_small_to_tell_from_zero_is_refused_naming_its_row(rows, tiny):
    # 5e-324 ms halved by k = 2 is 0: the plan read as infinitely faster
    comps = [Component(f"c{i}", 1.0) for i in range(rows - 1)] + [Component("tiny", tiny)]
    with pytest.raises(ProfileError) as info:
        Profile(comps)
    [problem] = info.value.problems
    assert problem.row == rows - 1 and problem.field == "time" and "too small to tell from 0" in problem.what
    for fine in (0.0, 1e-12):
        profile = Profile([Component("fast", fine), Component("slow", 1.0)], [Optimization("o", ("fast",), 1000.0)])
        a = analyse(profile)
        assert math.isfinite(a.combined.overall_speedup) and a.combined.new_total > 0


def test_a_tiny_time_in_a_workbook_is_refused_at_its_cell(tmp_path):
    import xlsxwriter

    from amdahl_desk.files import load_profile
    from amdahl_desk.model.errors import BadInputError

    path = tmp_path / "tiny.xlsx"
    book = xlsxwriter.Workbook(path)
    ws = book.add_worksheet("Components")
    ws.write_row(0, 0, ["Component", "Time (ms)"])
    ws.write_row(1, 0, ["a", 5e-324])
    ws.write_row(2, 0, ["b", 10])
    book.close()
    with pytest.raises((BadInputError, ProfileError)) as info:
        load_profile(path)
    assert "B2" in str(info.value) and "too small to tell from 0" in str(info.value)
