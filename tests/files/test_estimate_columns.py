"""The estimate columns on a workbook: found by header, refused at their cell, written back and read back equal."""

import openpyxl
import pytest
import python_calamine

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.units import TimeUnit

COMPONENTS = [("Component", "Time (ms)", "Time low", "Time high"), ("a", 600, 500, 700), ("b", 400, None, None)]


def workbook(tmp_path, optimizations, components=COMPONENTS, settings=None):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in components:
        ws.append(list(row))
    opt = book.create_sheet("Optimizations")
    for row in optimizations:
        opt.append(list(row))
    if settings:
        s = book.create_sheet("Settings")
        for row in settings:
            s.append(list(row))
    path = tmp_path / "estimates.xlsx"
    book.save(path)
    return path


def refusal(path):
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    return str(caught.value)


@pytest.mark.parametrize(
    "header",
    [
        ("Optimization", "Targets", "Speedup low", "Speedup", "Speedup high", "Effort", "Confidence"),
        ("Name", "Targets", "k low", "k", "k high", "Effort (days)", "Confidence"),
        ("Optimization", "Targets", "K LOW", "Speedup (likely)", "k high", "effort (days)", "confidence"),
    ],
)
def test_the_columns_are_found_by_header(tmp_path, header):
    path = workbook(tmp_path, [header, ("fast a", "a", 3, 4, 6, 5, "80%"), ("plain b", "b", None, 2, None, None, None)])
    profile = load_profile(path).profile
    fast, plain = profile.optimizations
    assert (fast.speedup_low, fast.speedup, fast.speedup_high, fast.effort, fast.confidence) == (3, 4, 6, 5, 0.8)
    assert (plain.speedup_low, plain.speedup_high, plain.effort, plain.confidence) == (None, None, None, 1.0)
    assert profile.components[0].time_range == (500, 700) and profile.components[1].time_range == (400, 400)


def test_a_confidence_is_a_share_or_a_percentage(tmp_path):
    rows = [("Optimization", "Targets", "Speedup", "Confidence"), ("x", "a", 2, 0.8), ("y", "a", 2, "65 %")]
    opts = load_profile(workbook(tmp_path, rows)).profile.optimizations
    assert [o.confidence for o in opts] == [0.8, 0.65]


HEADER = ("Optimization", "Targets", "Speedup low", "Speedup", "Speedup high", "Effort", "Confidence")


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (("x", "a", 5, 4, 6, None, None), 'Optimizations!C2: the low k of "x", 5×, is above its likely k 4×'),
        (("x", "a", 3, 4, 3.5, None, None), 'Optimizations!E2: the high k of "x", 3.5×, is below its likely k 4×'),
        (("x", "a", 0, 4, 6, None, None), 'Optimizations!C2: "0" is not a valid speedup'),
        (("x", "a", "fast", 4, 6, None, None), 'Optimizations!C2: "fast" is not a speedup'),
        (("x", "a", 3, 4, 6, -2, None), 'Optimizations!F2: "-2" is not a valid effort'),
        (("x", "a", 3, 4, 6, "soon", None), 'Optimizations!F2: "soon" is not an effort'),
        (("x", "a", 3, 4, 6, 2, 80), 'Optimizations!G2: "80" is not a confidence'),
        (("x", "a", 3, 4, 6, 2, "120%"), 'Optimizations!G2: "120%" is not a confidence'),
    ],
)
def test_a_bad_estimate_is_refused_at_its_cell(tmp_path, row, expected):
    message = refusal(workbook(tmp_path, [HEADER, row]))
    assert expected in message, message


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (("a", 600, 650, 700), 'Components!C2: the low time of "a", 650, is above its measured time 600'),
        (("a", 600, 500, 550), 'Components!D2: the high time of "a", 550, is below its measured time 600'),
        (("a", 600, "quick", 700), 'Components!C2: "quick" is not a time'),
        (("a", 600, -1, 700), 'Components!C2: "-1" is negative'),
    ],
)
def test_a_bad_time_range_is_refused_at_its_cell(tmp_path, row, expected):
    components = [COMPONENTS[0], row, ("b", 400, None, None)]
    message = refusal(workbook(tmp_path, [("Optimization", "Targets", "Speedup"), ("x", "a", 2)], components))
    assert expected in message, message


def test_nothing_is_half_loaded(tmp_path):
    rows = [HEADER, ("x", "a", 5, 4, 6, None, None), ("y", "b", 1, 2, 3, -1, None)]
    message = refusal(workbook(tmp_path, rows))
    assert "Optimizations!C2" in message and "Optimizations!F3" in message


def test_time_ranges_in_another_unit_are_converted(tmp_path):
    components = [
        ("Component", "Time (ms)", "Time low (s)", "Time high"),
        ("a", 600, 0.5, "0.7 s"),
        ("b", 400, None, None),
    ]
    profile = load_profile(
        workbook(tmp_path, [("Optimization", "Targets", "Speedup"), ("x", "a", 2)], components)
    ).profile
    assert profile.components[0].time_range == (500.0, 700.0)


def full_profile() -> Profile:
    comps = [
        Component("a", 600.0, time_low=550.0, time_high=700.0),
        Component("b", 300.0, time_high=320.5),
        Component("c", 100.0),
    ]
    opts = [
        Optimization("fast a", ("a",), 4.0, True, "", 3.0, 6.0, 5.0, 0.85),
        Optimization("fast b", ("b",), 2.0, False, "", None, 2.5, 0.5),
        Optimization("fast c", ("c",), 2.0),
    ]
    return Profile(comps, opts, Settings(target_time=700.0, plan_confidence=0.82))


def test_written_back_and_read_back_equal(tmp_path):
    profile = full_profile()
    path = tmp_path / "out.xlsx"
    save_profile(profile, path)
    assert load_profile(path).profile == profile
    plain = Profile([Component("c", 100.0)], [Optimization("fast c", ("c",), 2.0)])
    save_profile(plain, tmp_path / "plain.xlsx")
    book = python_calamine.CalamineWorkbook.from_path(str(tmp_path / "plain.xlsx"))
    assert book.get_sheet_by_name("Optimizations").to_python()[0] == [
        "Enabled",
        "Optimization",
        "Targets",
        "Speedup",
        "Notes",
    ]


def test_a_unit_change_writes_the_ranges_in_the_new_unit(tmp_path):
    profile = full_profile()
    profile.set_unit(TimeUnit.S)
    save_profile(profile, tmp_path / "s.xlsx")
    again = load_profile(tmp_path / "s.xlsx").profile
    assert again.unit is TimeUnit.S and again.components[0].time_range == (0.55, 0.7)


def test_the_summary_carries_the_probability_and_the_cheapest_plan(tmp_path):
    path = tmp_path / "out.xlsx"
    save_profile(full_profile(), path)
    rows = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()
    cells = {str(r[0]): r[1] for r in rows if r and r[0]}
    texts = [str(r[0]) for r in rows if r and r[0]]
    assert any(
        t.startswith("Under uncertainty: fast a (3–6×, likely 4×, 85% likely to work) + fast c (2×)") for t in texts
    )
    # fast a meets 700 ms whenever it works (600 ms / k ≤ 200 ms at k ≥ 3): 85% of the draws, stratified.
    assert cells["Probability of meeting the target"] == pytest.approx(0.85, abs=1e-3)
    assert "Cheapest plan: fast a reaches 700 ms with 85% probability for 5 engineer-days" in " ".join(texts)
    assert cells["Cheapest plan's probability"] == pytest.approx(0.85, abs=1e-3)
    row = next(r for r in rows if r and r[0] == "Cheapest plan's probability")
    assert row[3] == "fast a"  # which plan, beside its figure (in the label it ran past the label column)


def test_the_plan_confidence_setting_reads_as_written(tmp_path):
    rows = [("Optimization", "Targets", "Speedup"), ("x", "a", 2)]
    path = workbook(tmp_path, rows, settings=[("Setting", "Value"), ("Plan confidence", "95%")])
    assert load_profile(path).profile.settings.plan_confidence == 0.95
    path = workbook(tmp_path, rows, settings=[("Setting", "Value"), ("Plan confidence", "0%")])
    assert "plan confidence" in refusal(path).lower()


def test_a_csv_carries_time_ranges_both_ways(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("Component,Time (ms),Time low,Time high\na,600,500,700.5\nb,400,,\n", encoding="utf-8")
    profile = load_profile(path).profile
    assert profile.components[0].time_range == (500.0, 700.5) and profile.components[1].time_range == (400.0, 400.0)
    save_profile(profile, tmp_path / "again.csv")
    assert load_profile(tmp_path / "again.csv").profile == profile
    path.write_text("Component,Time (ms),Time low,Time high\na,600,650,700\n", encoding="utf-8")
    assert 'row 2, column 3: the low time of "a", 650, is above its measured time 600' in refusal(path)


def test_a_built_optimization_is_saved_and_read_back(tmp_path):
    """Done already (continued from an after profile): a Built column, read back as built and off."""
    from amdahl_desk.files import load_profile, save_profile
    from amdahl_desk.model.profile import Component, Optimization, Profile

    p = Profile(
        [Component("A", 10.0), Component("B", 5.0)],
        [
            Optimization("done", ("A",), 1.0, enabled=False, notes="built: planned 2×", built=True),
            Optimization("next", ("B",), 3.0, enabled=False),
        ],
    )
    save_profile(p, tmp_path / "p.xlsx")
    back = load_profile(tmp_path / "p.xlsx").profile
    assert [(o.name, o.built, o.enabled, o.speedup) for o in back.optimizations] == [
        ("done", True, False, 1.0),
        ("next", False, False, 3.0),
    ]
