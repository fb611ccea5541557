"""The saved workbook's Summary and print setup: the sections the window shows, with units, and sheets that print."""

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
import python_calamine

from amdahl_desk.files import load_profile, read_measurements, save_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.fit import fit_measurements
from amdahl_desk.model.outcomes import profile_outcomes
from amdahl_desk.present.sections import sections
from amdahl_desk.resources import example_path

RUNS = Path(__file__).parents[1] / "fit" / "fixtures" / "training-gpus.csv"


@pytest.fixture(scope="module")
def llm_with_runs(tmp_path_factory):
    profile = load_profile(example_path("llm-request.xlsx")).profile
    profile.measurements = read_measurements(RUNS).measurements
    path = tmp_path_factory.mktemp("summary") / "llm.xlsx"
    save_profile(profile, path)
    return profile, path


def summary_rows(path):
    """The Summary sheet as calamine reads it (no recalculation): a list of rows of values."""
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    return book.get_sheet_by_name("Summary").to_python()


def test_the_summary_holds_every_section_the_window_shows(llm_with_runs):
    profile, path = llm_with_runs
    rows = summary_rows(path)
    first = [r[0] for r in rows]
    for title in ("Objectives", "Under load: End to end", "Cost per run", "Measured runs: 7 runs against GPUs"):
        assert title in first, title
    by_label = {r[0]: r for r in rows if isinstance(r[0], str) and r[0]}
    # values with their units, as numbers a reader can use: worked out from the example's own numbers
    assert by_label["TTFT: before"][1:3] == [400.0, "ms"]
    assert by_label["TTFT: target"][1] == 300 and by_label["TTFT: target"][3].startswith("missed ✘")
    assert by_label["End to end: speedup"][1] == pytest.approx(1500 / 1050)
    assert by_label["Arrival rate"][1:3] == [14.0, "requests/s"]
    assert by_label["Utilization before"][1] == pytest.approx(14 * 1.5 / 24)  # λ·s / c
    assert by_label["Saved per run"][1:3] == [pytest.approx(0.45 / 3600 * 2.5), "$"]
    assert by_label["Highest rate on target, before"][1] == "out of reach"
    fit = fit_measurements(profile.measurements)
    assert by_label["Amdahl P"][1] == pytest.approx(fit.amdahl.parallel_fraction)
    assert by_label["Amdahl P"][3].startswith("87% ± ")  # the standard error the number alone would drop
    # the sentences, word for word as the presentation says them
    text = [v for r in rows for v in r if isinstance(v, str)]
    analysis = analyse(profile)
    for section in sections(profile, analysis, profile_outcomes(profile, analysis), fit):
        for sentence in section.sentences:
            assert sentence in text, sentence


def test_new_time_follows_each_targeting_optimization_s_tick_and_speedup(tmp_path):
    profile = load_profile(example_path("training-iteration.xlsx")).profile
    path = tmp_path / "t.xlsx"
    save_profile(profile, path)
    ws = openpyxl.load_workbook(path)["Components"]
    opts = {o.name: i + 2 for i, o in enumerate(profile.optimizations)}
    for row, component in enumerate(profile.components, start=2):
        targeting = [r for name, r in opts.items() if component.name in profile.optimizations[r - 2].targets]
        factors = [f"IF(Optimizations!$A${r},Optimizations!$D${r},1)" for r in targeting]
        want = f"=B{row}/{factors[0]}" if factors else f"=B{row}"  # here one optimization per component at most
        assert ws[f"G{row}"].value == want, component.name
    assert not any(re.search(r"/\d", ws[f"G{r}"].value) for r in range(2, 7))  # no k written in as a number
    assert sum("IF(" in ws[f"G{r}"].value for r in range(2, 7)) == 4  # each of the 4 optimizations, disabled too


def test_each_sheet_prints_across_the_page_with_its_header(llm_with_runs):
    _, path = llm_with_runs
    book = openpyxl.load_workbook(path)
    expected_area = {
        "Components": "$A$1:$H$7",  # 5 rows and the total; the Objectives column
        "Optimizations": "$A$1:$E$4",
        "Objectives": "$A$1:$C$3",
        "Measurements": "$A$1:$D$8",
    }
    for ws in book.worksheets:
        setup = ws.page_setup
        assert setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage and (setup.fitToWidth or 1, setup.fitToHeight) == (1, 0), (
            ws.title
        )
        assert ws.oddFooter.left.text == "&A" and "&P of &N" in ws.oddFooter.right.text
        if ws.title in expected_area:
            assert ws.print_area == f"'{ws.title}'!{expected_area[ws.title]}"
            assert ws.print_title_rows == "$1:$1"  # the header on every page


def test_each_summary_chart_starts_a_printed_page(llm_with_runs):
    _, path = llm_with_runs
    ws = openpyxl.load_workbook(path)["Summary"]
    breaks = [b.id for b in ws.row_breaks.brk]
    with zipfile.ZipFile(path) as zf:
        drawing = next(zf.read(n).decode() for n in zf.namelist() if n.startswith("xl/drawings/drawing"))
    anchors = [
        int(r)
        for r in re.findall(
            r"<xdr:from><xdr:col>\d+</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row>", drawing
        )
    ]
    assert len(anchors) == 2 and breaks == anchors  # a break above each chart's first row (both 0-based)
    last = int(re.search(r"\$(\d+)$", ws.print_area).group(1))
    ends = [
        int(r)
        for r in re.findall(
            r"<xdr:to><xdr:col>\d+</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row>", drawing
        )
    ]
    assert max(ends) < last  # the charts are inside the print area
    cols = re.findall(r"<xdr:to><xdr:col>(\d+)</xdr:col>", drawing)
    assert all(int(c) <= 7 for c in cols)  # and within A:H, the printed width


def test_a_long_optimization_name_wraps_in_its_column(tmp_path):
    """The Summary's optimizations table: a name longer than the label column (30 characters wide) wraps on a row
    tall enough for its lines, instead of running under the Enabled column and being cut there."""
    path = tmp_path / "training.xlsx"
    save_profile(load_profile(example_path("training-iteration.xlsx")).profile, path)
    ws = openpyxl.load_workbook(path)["Summary"]
    cells = {c.value: c for row in ws.iter_rows(max_col=1) for c in row if isinstance(c.value, str)}
    long = cells["Reduced precision and tensor-core kernels"]  # 41 characters
    assert long.alignment.wrap_text
    assert (ws.row_dimensions[long.row].height or 15) >= 30
    short = cells["Kernel fusion"]
    assert ws.row_dimensions[short.row].height in (None, 15)
