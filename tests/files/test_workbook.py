"""Profile workbooks: round trips, workbooks from other writers, formulas and text that stays text."""

from pathlib import Path

import openpyxl
import pytest

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings
from amdahl_desk.model.units import TimeUnit

from ..helpers import training

FIXTURES = Path(__file__).parent / "fixtures"


def test_round_trip_gives_an_equal_profile(tmp_path):
    p = training(
        target_time=600,
        baseline_gpus=8,
        overhead_model=OverheadModel.RING,
        ring_latency=7.3e-6,
        ring_message_bytes=1.5e9,
        ring_bandwidth=4.5e10,
        parallel_fraction=0.7,
        boundary="an iteration",
        gpu_counts=(1, 8, 24, 512),
    )
    p.set_component(0, Component(p.components[0].name, 100, Scaling.SERIAL, "host", "note, with comma"))
    opts = list(p.optimizations)
    opts.insert(
        1, Optimization("Off one", ("Other GPU kernels", "Miscellaneous overhead"), 1.5, enabled=False, notes="maybe")
    )
    p.set_optimizations(opts)
    path = tmp_path / "p.xlsx"
    save_profile(p, path)
    assert load_profile(path).profile == p


def test_round_trip_in_seconds(tmp_path):
    p = training()
    p.set_unit(TimeUnit.US)
    save_profile(p, tmp_path / "us.xlsx")
    loaded = load_profile(tmp_path / "us.xlsx").profile
    assert loaded.unit is TimeUnit.US and loaded == p


def test_export_has_live_formulas_and_summary(tmp_path):
    path = tmp_path / "p.xlsx"
    save_profile(training(), path)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Components", "Optimizations", "Settings", "Summary"]
    ws = book["Components"]
    assert [c.value for c in ws[1]] == ["Component", "Time (ms)", "Share", "Scaling", "Group", "Notes", "New time (ms)"]
    assert ws["A7"].value == "Total" and ws["B7"].value == "=SUM(B2:B6)"
    assert ws["C3"].value == "=IF($B$7=0,0,B3/$B$7)"
    # matmul ÷ its optimization's k when ticked, on the Optimizations sheet's cells; the rest as measured
    assert ws["G3"].value == "=B3/IF(Optimizations!$A$2,Optimizations!$D$2,1)" and ws["G2"].value == "=B2"
    summary = [[c.value for c in row] for row in book["Summary"].iter_rows()]
    flat = [v for row in summary for v in row if v is not None]
    labels = [r[0] for r in summary]
    base, new = labels.index("Baseline total (ms)") + 1, labels.index("New total (ms)") + 1
    assert summary[base - 1][1] == "=Components!$B$7" and summary[new - 1][1] == "=Components!$G$7"
    speedup = summary[labels.index("End-to-end speedup")][1]
    assert speedup == f'=IF($B${new}=0,"∞",$B${base}/$B${new})'  # the Components sheet's totals, divided
    # P follows the Components sheet; the Amdahl column is a formula on it
    p_row = next(r for r in summary if r[0] == "Parallel share P")
    assert p_row[1].startswith('=IF(Components!$B$7=0,0,SUMIF(Components!$D$2:$D$6,"parallel"')
    assert any(isinstance(v, str) and v.startswith("=1/((1-$B$") for v in flat)


def test_export_carries_native_charts_on_its_own_cells(tmp_path):
    import zipfile

    path = tmp_path / "p.xlsx"
    save_profile(training(), path)
    with zipfile.ZipFile(path) as zf:
        charts = sorted(n for n in zf.namelist() if n.startswith("xl/charts/chart"))
        xml = "".join(zf.read(n).decode() for n in charts)
    assert len(charts) == 2
    assert "barChart>" in xml and "scatterChart>" in xml
    assert "'Components'!$B$2:$B$6" in xml and "'Components'!$G$2:$G$6" in xml  # baseline and after, in the table
    assert 'logBase val="2"' in xml


def test_text_that_looks_like_a_formula_stays_text(tmp_path):
    p = Profile(
        [Component('=HYPERLINK("http://x")', 1), Component("+1", 2), Component("-x", 3), Component("@SUM(A1)", 4)],
        [Optimization("=cmd|' /C calc'!A0", ("+1",), 2, notes="=1+1")],
    )
    path = tmp_path / "evil.xlsx"
    save_profile(p, path)
    book = openpyxl.load_workbook(path)
    for row in book["Components"].iter_rows(min_row=2, max_row=5, max_col=1):
        assert row[0].data_type == "s"
    assert book["Optimizations"]["B2"].data_type == "s" and book["Optimizations"]["E2"].data_type == "s"
    assert load_profile(path).profile == p


class TestOtherWriters:
    def test_libreoffice_csv_paste_with_text_times_and_end_to_end_row(self):
        loaded = load_profile(FIXTURES / "llm-libreoffice.xlsx")
        p = loaded.profile
        assert [c.name for c in p.components][0] == "Gateway, validation, routing"
        assert p.total == 1500 and len(p.components) == 5
        assert any("total line" in str(w) for w in loaded.warnings)

    @pytest.mark.parametrize("name", ["training-seconds-libreoffice.xlsx", "training-seconds-openpyxl.xlsx"])
    def test_title_rows_any_column_order_seconds_and_optimizations(self, name):
        loaded = load_profile(FIXTURES / name)
        p = loaded.profile
        assert p.unit is TimeUnit.S
        assert p.total == pytest.approx(1.0)
        assert p.components[1].scaling is Scaling.PARALLEL and p.components[2].scaling is Scaling.PARALLEL
        assert p.components[0].notes == "loader"
        assert [o.enabled for o in p.optimizations] == [True, False]
        assert p.optimizations[1].targets == ("Input pipeline and host preparation",)
        assert p.settings.target_time == pytest.approx(0.6)
        assert p.settings.gpu_counts[-1] == 256
        a = analyse(p)
        assert a.combined.overall_speedup == pytest.approx(1 / 0.55)
        assert loaded.warnings == []  # the Total formula's cached value (or none) matches

    def test_first_sheet_without_components_name_and_total_mismatch_warning(self, tmp_path):
        book = openpyxl.Workbook()
        ws = book.active
        ws.title = "Profile"
        ws.append(["Name", "Baseline time"])
        ws.append(["a", "100 ms"])
        ws.append(["b", "0.3 s"])
        ws.append(["Total", "500 ms"])
        book.save(tmp_path / "x.xlsx")
        loaded = load_profile(tmp_path / "x.xlsx")
        assert [c.time for c in loaded.profile.components] == [100, 300]
        assert loaded.profile.unit is TimeUnit.MS
        assert "Profile!B4" in str(loaded.warnings[0]) and "400" in str(loaded.warnings[0])

    def test_enabled_column_missing_means_all_enabled_and_empty_means_off(self, tmp_path):
        book = openpyxl.Workbook()
        book.active.title = "Components"
        book.active.append(["Component", "Time"])
        book.active.append(["a", 1])
        book.active.append(["b", 1])
        opt = book.create_sheet("Optimizations")
        opt.append(["Optimization", "Targets", "Speedup"])
        opt.append(["o1", "a", 2])
        opt.append(["o2", "a; b", "3×"])
        book.save(tmp_path / "a.xlsx")
        p = load_profile(tmp_path / "a.xlsx").profile
        assert [o.enabled for o in p.optimizations] == [True, True]
        assert p.optimizations[1].targets == ("a", "b")
        opt.insert_cols(1)
        opt["A1"] = "Enabled"
        opt["A2"] = "x"
        book.save(tmp_path / "b.xlsx")
        p = load_profile(tmp_path / "b.xlsx").profile
        assert [o.enabled for o in p.optimizations] == [True, False]

    def test_settings_sheet_keys(self, tmp_path):
        book = openpyxl.Workbook()
        book.active.title = "Components"
        book.active.append(["Component", "Time (us)"])
        book.active.append(["a", 10])
        s = book.create_sheet("Settings")
        for row in [
            ("Setting", "Value"),
            ("Target time", "8 us"),
            ("Baseline GPUs", 2),
            ("GPU counts", "1, 2, 4, 32"),
            ("Parallel fraction", "90%"),
            ("Overhead model", "Ring"),
            ("Ring latency", "2 us"),
            ("Ring message size", "10 MB"),
            ("Ring bandwidth", "400 Gb/s"),
            ("Boundary", "kernel"),
        ]:
            s.append(row)
        book.save(tmp_path / "s.xlsx")
        st = load_profile(tmp_path / "s.xlsx").profile.settings
        assert st == Settings(
            target_time=8,
            baseline_gpus=2,
            gpu_counts=(1, 2, 4, 32),
            parallel_fraction=0.9,
            overhead_model=OverheadModel.RING,
            ring_latency=2e-6,
            ring_message_bytes=1e7,
            ring_bandwidth=5e10,
            boundary="kernel",
        )


def test_bundled_examples_load():
    from amdahl_desk.resources import example_path

    for name in ("training-iteration.xlsx", "llm-request.xlsx"):
        loaded = load_profile(example_path(name))
        assert loaded.warnings == []
        assert loaded.profile.total in (1000, 1500)


def test_control_characters_never_break_a_save(tmp_path):
    (tmp_path / "c.csv").write_text("Component,Time\nbad\x01name,1\nok,2\n", encoding="utf-8")
    profile = load_profile(tmp_path / "c.csv").profile
    save_profile(profile, tmp_path / "c.xlsx")
    assert [c.name for c in load_profile(tmp_path / "c.xlsx").profile.components] == ["bad\ufffdname", "ok"]
