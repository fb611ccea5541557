"""The saved workbook in LibreOffice: edits recalculate New time and the Summary; each sheet prints as expected.

Skipped where LibreOffice is not installed (Debian: apt-get install libreoffice-calc).
"""

import csv
import re
import shutil
import subprocess

import openpyxl
import pytest

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.resources import example_path

SOFFICE = shutil.which("soffice")
pytestmark = pytest.mark.skipif(
    SOFFICE is None, reason="LibreOffice is not installed (apt-get install libreoffice-calc)"
)

# A profile of its own for each run, told to recalculate every formula of an xlsx file it opens.
RECALCULATE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">
<value>0</value></prop></item>
</oor:items>
"""


def convert(path, to, tmp_path):
    """``path`` opened in LibreOffice (every formula recalculated) and saved as ``to``; returns the new file."""
    profile = tmp_path / "lo-profile"
    (profile / "user").mkdir(parents=True, exist_ok=True)
    (profile / "user" / "registrymodifications.xcu").write_text(RECALCULATE)
    out = tmp_path / "lo-out"
    cmd = [SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to", to]
    proc = subprocess.run([*cmd, "--outdir", str(out), str(path)], capture_output=True, text=True, timeout=240)
    result = out / f"{path.stem}.{to.split(':')[0]}"
    assert result.exists(), proc.stdout + proc.stderr
    return result


def test_a_speedup_or_a_tick_edited_in_the_spreadsheet_moves_new_time_and_the_summary(tmp_path):
    path = tmp_path / "llm.xlsx"
    save_profile(load_profile(example_path("llm-request.xlsx")).profile, path)
    book = openpyxl.load_workbook(path)
    opts = book["Optimizations"]
    assert (opts["B2"].value, opts["B3"].value) == ("Faster decode", "Prefill attention kernels")
    opts["D2"] = 4  # decode 4× instead of 2×
    opts["A3"] = True  # and prefill 1.5× ticked
    edited = tmp_path / "edited.xlsx"
    book.save(edited)
    values = openpyxl.load_workbook(convert(edited, "xlsx", tmp_path), data_only=True)
    comps = values["Components"]
    # 40 + 60 + 300/1.5 + 900/4 + 200: worked out by hand
    assert [comps[f"G{r}"].value for r in range(2, 7)] == pytest.approx([40, 60, 200, 225, 200])
    assert comps["G7"].value == pytest.approx(725)
    summary = {r[0].value: [c.value for c in r] for r in values["Summary"].iter_rows() if r[0].value}
    assert summary["New total (ms)"][1] == pytest.approx(725)
    assert summary["End-to-end speedup"][1] == pytest.approx(1500 / 725)
    assert summary["Time saved (ms)"][1] == pytest.approx(775)
    # each optimization alone, from its own k: decode is 60% of the time, prefill 20%
    assert summary["Faster decode"][2] == 4 and summary["Faster decode"][4] == pytest.approx(1 / (0.4 + 0.6 / 4))
    assert summary["Prefill attention kernels"][1] == 1  # TRUE: LibreOffice saves a formula's boolean as 1
    assert summary["Prefill attention kernels"][5] == pytest.approx(1500 * (0.8 + 0.2 / 1.5))


def page_texts(pdf):
    pages = int(next(line.split()[-1] for line in _run("pdfinfo", pdf).splitlines() if line.startswith("Pages:")))
    return [_run("pdftotext", "-f", str(n), "-l", str(n), "-layout", pdf, "-") for n in range(1, pages + 1)]


def _run(tool, *args):
    found = shutil.which(tool)
    if found is None:
        pytest.skip(f"{tool} is not installed (apt-get install poppler-utils)")
    return subprocess.run([found, *map(str, args)], capture_output=True, text=True, check=True, timeout=60).stdout


@pytest.mark.parametrize(
    "name, small_sheets, summary_pages",
    [
        ("training-iteration.xlsx", ["Components", "Optimizations", "Settings"], 2),
        ("llm-request.xlsx", ["Components", "Optimizations", "Settings", "Objectives"], 2),
        ("llm-request-after.xlsx", ["Components", "Optimizations", "Settings"], 1),  # no plan, no objectives
    ],
)
def test_each_sheet_prints_on_its_pages_and_each_chart_on_one(tmp_path, name, small_sheets, summary_pages):
    """Written before with no print setup, these printed on 13 to 16 pages, columns and charts cut across them."""
    pages = page_texts(convert(example_path(name), "pdf", tmp_path))
    footers = [next(line for line in p.splitlines() if re.search(r"Page \d+ of \d+\s*$", line)).split() for p in pages]
    assert all(f[-4:-2] == ["Page", str(i)] and f[-1] == str(len(pages)) for i, f in enumerate(footers, start=1))
    sheets = [f[0] for f in footers]
    # each small sheet on one page; the Summary's figures on one or two, then each of its two charts on a page
    assert sheets == [*small_sheets, *["Summary"] * (summary_pages + 2)], sheets
    bars, lines = pages[-2], pages[-1]
    assert "Time per component: baseline and after the plan" in bars and "Time (ms)" in bars
    assert "Gateway" in bars or "Input pipeline" in bars  # the components' names with their bars
    assert "GPU scaling: speedup against the baseline" in lines and "GPUs (log" in lines


def test_libreoffice_shows_enabled_as_true_false_and_every_time_with_its_thousands(tmp_path):
    """Each sheet saved by LibreOffice as CSV "as shown": what a person reads in its cells."""
    from .test_column_formats import saved

    path = saved(tmp_path)
    out = tmp_path / "shown"
    profile = tmp_path / "lo-profile"
    as_shown = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"  # every sheet
    cmd = [SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to", as_shown]
    subprocess.run([*cmd, "--outdir", str(out), str(path)], capture_output=True, text=True, timeout=240)
    sheets = {p.stem.removeprefix(f"{path.stem}-"): p.read_text().splitlines() for p in out.glob("*.csv")}
    components = [next(csv.reader([line])) for line in sheets["Components"]]
    assert components[1][:2] == ["decode", "1,050"]
    assert components[4][0] == "Total" and components[4][1] == "1,499.75" and components[4][6] == "899.875"
    assert components[1][6] == "525"  # 1,050 / 2; prefill (1.5×) not ticked; 525 + 300 + 149.75 / 2 = 899.875
    enabled = [line.split(",")[0] for line in sheets["Optimizations"][1:]]
    assert enabled == ["TRUE", "FALSE", "TRUE"]
    objectives = [next(csv.reader([line])) for line in sheets["Objectives"]]
    assert objectives[1][:2] == ["TTFT", "1,500"]
