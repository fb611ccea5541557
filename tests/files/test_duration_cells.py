"""Time- and duration-formatted cells are read from the number the sheet stores, never rounded to the millisecond."""

import datetime as dt
import math
from fractions import Fraction

import openpyxl
import pytest
import xlsxwriter

from amdahl_desk.files import load_profile, read_measurements
from amdahl_desk.files.duration_cells import time_format
from amdahl_desk.model.errors import ProfileError

MS_PER_DAY = 86_400_000
TIMES_MS = [0.4, 42.5, 1500.25, 0.001, 3_600_000.5]  # below, at and above a millisecond; an hour and a half-ms
FORMATS = ["[h]:mm:ss.000", "mm:ss.000", "[hh]:mm:ss.000", "[mm]:ss.000", "h:mm:ss.000", "[ss].000"]


def stored_ms(days: float) -> float:
    """What the file holds, in ms, by exact rational arithmetic (no float product)."""
    return float(Fraction(days) * MS_PER_DAY)


def near(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-14, abs_tol=1e-15)


def openpyxl_book(path, times, fmt):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Components"
    ws.append(["Component", "Time"])
    for i, ms in enumerate(times):
        ws.append([f"c{i}", ms / MS_PER_DAY])
        ws.cell(i + 2, 2).number_format = fmt
    wb.save(path)
    return path


def xlsxwriter_book(path, times, fmt):
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Components")
    style = wb.add_format({"num_format": fmt})
    ws.write_row(0, 0, ["Component", "Time"])
    for i, ms in enumerate(times):
        ws.write(i + 1, 0, f"c{i}")
        ws.write_number(i + 1, 1, ms / MS_PER_DAY, style)
    wb.close()
    return path


@pytest.mark.parametrize("writer", [openpyxl_book, xlsxwriter_book])
@pytest.mark.parametrize("fmt", FORMATS)
def test_duration_cells_are_read_exactly(tmp_path, writer, fmt):
    times = TIMES_MS if "h" in fmt else TIMES_MS[:4]  # a time of day past 24 h is refused (below)
    path = writer(tmp_path / "durations.xlsx", times, fmt)
    profile = load_profile(path).profile
    got = [c.time for c in profile.components]
    assert profile.unit.value == "ms"
    for ms, time in zip(times, got, strict=True):
        assert near(time, stored_ms(ms / MS_PER_DAY)), (fmt, ms, time)
        assert near(time, ms)


def test_sub_millisecond_components_keep_the_parallel_fraction(tmp_path):
    """0.4 ms of serial work beside 2.4 ms of parallel work: P is 6/7, not 1."""
    path = tmp_path / "p.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Components"
    ws.append(["Component", "Time", "Scaling"])
    ws.append(["launch", 0.4 / MS_PER_DAY, "serial"])
    ws.append(["kernel", 2.4 / MS_PER_DAY, "parallel"])
    for r in (2, 3):
        ws.cell(r, 2).number_format = "[h]:mm:ss.000"
    wb.save(path)
    from amdahl_desk.model.analysis import analyse

    analysis = analyse(load_profile(path).profile)
    assert math.isclose(analysis.scaling.parallel_fraction, 2.4 / 2.8, rel_tol=1e-12)


def test_a_time_of_day_past_a_day_is_refused_at_its_cell(tmp_path):
    path = openpyxl_book(tmp_path / "tod.xlsx", [1.0, 25 * 3_600_000.0], "hh:mm:ss")
    with pytest.raises(ProfileError, match=r"Components!B3: holds 1\.04166666666667 days in a time-of-day format"):
        load_profile(path)


def test_a_duration_formula_is_computed_in_days(tmp_path):
    """=B2*2 in a duration cell: twice B2's duration, not a bare number of days read as ms."""
    path = tmp_path / "f.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Components"
    ws.append(["Component", "Time"])
    ws.append(["a", 42.5 / MS_PER_DAY])
    ws.append(["b", "=B2*2"])
    for r in (2, 3):
        ws.cell(r, 2).number_format = "[h]:mm:ss.000"
    wb.save(path)
    times = [c.time for c in load_profile(path).profile.components]
    assert near(times[0], 42.5) and near(times[1], 85.0)


def test_settings_objectives_and_runs_take_durations_too(tmp_path):
    path = tmp_path / "all.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Components"
    ws.append(["Component", "Time (ms)"])
    ws.append(["a", 10])
    settings = wb.create_sheet("Settings")
    settings.append(["Setting", "Value"])
    settings.append(["Target time", 7.25 / MS_PER_DAY])
    settings["B2"].number_format = "[h]:mm:ss.000"
    settings.append(["Max GPUs", 4 / MS_PER_DAY])  # a count formatted as a time: refused, not read as days
    settings["B3"].number_format = "[h]:mm:ss.000"
    wb.save(path)
    with pytest.raises(ProfileError, match=r"Settings!B3"):
        load_profile(path)
    settings.delete_rows(3)
    wb.save(path)
    assert near(load_profile(path).profile.settings.target_time, 7.25)


def test_measured_runs_in_durations(tmp_path):
    path = tmp_path / "runs.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Measurements"
    ws.append(["GPUs", "Time"])
    for n, ms in ((1, 1000.25), (2, 500.5), (4, 250.125)):
        ws.append([n, ms / MS_PER_DAY])
        ws.cell(ws.max_row, 2).number_format = "[h]:mm:ss.000"
    wb.save(path)
    runs = read_measurements(path).measurements
    assert [round(m.value, 9) for m in runs.rows] == [1000.25, 500.5, 250.125]


def test_a_time_cell_whose_number_cannot_be_found_is_refused_not_rounded():
    from amdahl_desk.files.cells import cell_time
    from amdahl_desk.model.values import ParseError

    with pytest.raises(ParseError, match="stored number could not be read exactly"):
        cell_time(dt.timedelta(milliseconds=43))
    with pytest.raises(ParseError, match="stored number could not be read exactly"):
        cell_time(dt.time(0, 0, 0, 43000))


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("[h]:mm:ss.000", True),
        ("[HH]:MM:SS.00", True),
        ("mm:ss.000", False),
        ("hh:mm:ss", False),
        ("[$-409]h:mm:ss AM/PM", False),
        ("yyyy-mm-dd hh:mm", None),
        ("dd/mm/yyyy", None),
        ('0.0" s"', None),
        ("0.0\\s", None),
        ("#,##0.###", None),
        ("General", None),
        ("0.00%", None),
        ("[Red][h]:mm", True),
    ],
)
def test_which_formats_show_a_time(code, kind):
    assert time_format(code) is kind


def test_a_styles_part_with_100000_time_formats_is_read_in_bounded_time(tmp_path):
    import time
    import zipfile

    path = openpyxl_book(tmp_path / "many.xlsx", [42.5, 7.0], "[h]:mm:ss.000")
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    styles = parts["xl/styles.xml"]
    at = styles.index(b"</cellXfs>")
    parts["xl/styles.xml"] = styles[:at] + b'<xf numFmtId="46"/>' * 100_000 + styles[at:]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    start = time.monotonic()
    assert [round(c.time, 9) for c in load_profile(path).profile.components] == [42.5, 7.0]
    assert time.monotonic() - start < 20
