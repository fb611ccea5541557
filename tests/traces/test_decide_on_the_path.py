"""A traced profile decides on its trace's dependencies everywhere: ``report``'s cheapest plan and ranking, the
workbook ``export`` writes, where the time goes and the table's total. The 1-GPU trace grouped by annotation, with
backward at k = 2 (5 engineer-days) and forward at k = 1.5 (1 engineer-day), a target of 70 ms: by the sum,
forward alone meets it (78.8 → 69.1 ms); on the step's critical path forward's 1.5× leaves the step at about
72.6 ms and backward's 2× at 53.5 ms, so the cheapest plan that meets it is backward. Expected figures are the
planner's single what-if pass (``TracePlanner.plan``), not the draws or the code under test."""

from __future__ import annotations

import json
import shutil

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.profile import Optimization
from amdahl_desk.model.traces.plan_path import TracePlanner
from amdahl_desk.model.traces.whatif import prepare

from . import expect

BW, FW = ("## backward ##",), ("## forward ##",)
TARGET = 70.0


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    folder = tmp_path_factory.mktemp("decide")
    trace = folder / "trace.json.gz"
    shutil.copy(expect.ONE_GPU, trace)
    profile = import_trace(trace).to_profile()
    profile.set_components([c._replace(time_low=None, time_high=None) for c in profile.components])
    profile.set_optimizations(
        [Optimization("bw", BW, 2.0, effort=5.0), Optimization("fw", FW, 1.5, enabled=False, effort=1.0)]
    )
    from dataclasses import replace

    profile.set_settings(replace(profile.settings, target_time=TARGET))
    save_profile(profile, folder / "p.xlsx")
    return folder


@pytest.fixture(scope="module")
def path_totals(workbook):
    """The table's baseline and each plan's new total on the critical path: baseline × after / before."""
    planner = TracePlanner(
        prepare(load_rank_graph(workbook / "trace.json.gz").trace),
        (("## backward ##", "annotation:## backward ##"), ("## forward ##", "annotation:## forward ##")),
    )
    base = load_profile(workbook / "p.xlsx").profile.total
    before = planner.baseline.length

    def total(*plan: tuple[tuple[str, ...], float]) -> float:
        return base * planner.plan(tuple(plan)).predicted.length / before

    times = {c.name: c.time for c in load_profile(workbook / "p.xlsx").profile.components}
    return {
        "base": base,
        "bw": total((BW, 2.0)),
        "fw": total((FW, 1.5)),
        "sum fw": base - times["## forward ##"] * (1 - 1 / 1.5),
        "sum bw": base - times["## backward ##"] * (1 - 1 / 2.0),
    }


def _json(capsys, *argv: str) -> dict:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_the_premise(path_totals):
    t = path_totals
    assert t["sum fw"] <= TARGET < t["fw"]  # by the sum forward meets 70 ms; on the path it does not
    assert t["bw"] <= TARGET


def test_reports_cheapest_plan_and_ranking_come_from_the_dependencies(workbook, path_totals, capsys):
    data = _json(capsys, "report", str(workbook / "p.xlsx"), "--json")
    cheapest = data["plans"]["cheapest"]
    assert cheapest["optimizations"] == ["bw"] and cheapest["effort"] == 5.0
    assert cheapest["probability_target"] == 1.0
    assert cheapest["new_total_p50"] == pytest.approx(path_totals["bw"], rel=1e-9)
    capsys.readouterr()
    assert main(["report", str(workbook / "p.xlsx")]) == 0
    assert "Cheapest plan: bw reaches 70 ms" in capsys.readouterr().out


def _summary(path) -> list[list]:
    from python_calamine import CalamineWorkbook

    return CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()


def test_export_to_a_workbook_leads_with_the_dependencies(workbook, path_totals, tmp_path, capsys):
    assert main(["export", str(workbook / "p.xlsx"), "--format", "xlsx", "--out", str(tmp_path)]) == 0
    rows = _summary(tmp_path / "p.xlsx")
    first = {r[0]: r[1] for r in reversed(rows) if r and isinstance(r[0], str)}  # a label's first row wins
    assert first["End-to-end speedup"] == pytest.approx(path_totals["base"] / path_totals["bw"], rel=1e-9)
    assert first["New total (ms)"] == pytest.approx(path_totals["bw"], rel=1e-9)
    speedups = [r[1] for r in rows if r and r[0] == "End-to-end speedup"]
    assert speedups[1] == pytest.approx(path_totals["base"] / path_totals["sum bw"], rel=1e-9)  # the sum, beside
    plan = [r for r in rows if r and r[0] == "Cheapest plan's probability"]
    assert plan and plan[0][1] == 1.0 and "bw" in [str(c) for c in plan[0]]
    alone = [r for r in rows if r and r[0] == "fw"]
    assert alone[0][3] == pytest.approx(path_totals["base"] / path_totals["fw"], rel=1e-9)  # with dependencies
    assert alone[1][4] == pytest.approx(path_totals["base"] / path_totals["sum fw"], rel=1e-9)  # the sum's


def test_export_of_a_lost_trace_says_so_and_keeps_the_sum(workbook, tmp_path, capsys):
    shutil.copy(workbook / "p.xlsx", tmp_path / "p.xlsx")
    (workbook / "trace.json.gz").rename(workbook / "away.json.gz")
    try:
        capsys.readouterr()
        assert main(["export", str(tmp_path / "p.xlsx"), "--format", "xlsx", "--out", str(tmp_path / "o")]) == 0
        err = capsys.readouterr().err
    finally:
        (workbook / "away.json.gz").rename(workbook / "trace.json.gz")
    assert "cannot be used" in err and "sum of the components' times" in err
    rows = _summary(tmp_path / "o" / "p.xlsx")
    assert any("cannot be used" in str(c) for r in rows for c in r)
    plan = [r for r in rows if r and r[0] == "Cheapest plan's probability"]
    assert plan and "fw" in [str(c) for c in plan[0]]  # the sum's plan, as the note says
