"""compare on profiler traces: both sides imported alike (--group-by, --total), a trace and a table refused."""

from __future__ import annotations

import json

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import is_trace, load_any
from amdahl_desk.model.traces import ImportOptions
from amdahl_desk.resources import example_path

from . import expect

FIXTURE = expect.FIXTURES / "torch_cpu_steps.json.gz"
ONE_GPU = expect.REAL / "kineto_1gpu_ns_timestamps.json.gz"
SIXTEEN = expect.REAL / "kineto_16gpu_nccl_rank0.json.gz"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_trace_against_itself_is_exactly_as_planned(capsys):
    code, out, _ = run(capsys, "compare", str(FIXTURE), str(FIXTURE), "--json")
    assert code == 0
    data = json.loads(out)
    # default import: the mean step, from the ProfilerStep events' durations
    assert data["before_total"] == pytest.approx(expect.mean_step_ms(expect.load(FIXTURE)), rel=1e-9)
    assert data["after_total"] == data["before_total"] and data["measured_speedup"] == 1


def test_total_applies_to_both_sides(capsys):
    code, out, _ = run(capsys, "compare", str(FIXTURE), str(FIXTURE), "--total", "--json")
    assert code == 0
    data = json.loads(out)
    per_step = expect.mean_step_ms(expect.load(FIXTURE))
    assert data["before_total"] == data["after_total"] and data["before_total"] > 3 * per_step


def test_group_by_applies_to_both_sides(capsys):
    code, out, _ = run(capsys, "compare", str(FIXTURE), str(FIXTURE), "--group-by", "annotation", "--json")
    assert code == 0
    names = {r["name"] for r in json.loads(out)["components"]}
    assert set(expect.outermost_annotations_ms(expect.load(FIXTURE))) <= names


def test_two_real_traces(capsys):
    code, out, _ = run(capsys, "compare", str(ONE_GPU), str(SIXTEEN), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["before_total"] == pytest.approx(expect.mean_step_ms(expect.load(ONE_GPU)), rel=1e-6)
    assert data["measured_speedup"] == pytest.approx(data["before_total"] / data["after_total"])


def test_a_trace_and_a_workbook_are_refused_either_way(capsys):
    for before, after, trace in (
        (FIXTURE, example_path("llm-request.xlsx"), "BEFORE"),
        (example_path("llm-request.xlsx"), FIXTURE, "AFTER"),
    ):
        code, out, err = run(capsys, "compare", str(before), str(after))
        assert code == 2 and out == ""
        assert f"{trace} is a profiler trace" in err and "compare like with like" in err


def test_a_workbook_imported_from_a_trace_compares_with_a_trace_as_the_window_does(capsys, tmp_path):
    """The window compares a document imported from a trace with a trace measured after, imported with the
    document's grouping; the command did not: it refused the pair as unlike."""
    workbook = tmp_path / "before.xlsx"
    assert main(["import", str(FIXTURE), "--group-by", "op", "--out", str(workbook)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "compare", str(workbook), str(FIXTURE), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["before_total"] == pytest.approx(data["after_total"])  # imported alike: by op, as the workbook was
    assert data["components"] and all(r["status"] == "unchanged" for r in data["components"])


def test_a_trace_measured_again_under_another_name_is_the_same_boundary(capsys, tmp_path):
    """Every boundary an import writes names its file: before.json against after.json warned that the profiles
    state different boundaries, on every comparison of two traces."""
    after = tmp_path / "after.json.gz"
    after.write_bytes(ONE_GPU.read_bytes())
    code, _, err = run(capsys, "compare", str(ONE_GPU), str(after))
    assert code == 0 and "different boundaries" not in err
    code, _, err = run(capsys, "compare", str(ONE_GPU), str(SIXTEEN))  # rank 0 of 16 against one GPU: it says so
    assert code == 0 and "different boundaries" in err


def test_an_unknown_grouping_is_refused(capsys):
    code, _, err = run(capsys, "compare", str(FIXTURE), str(FIXTURE), "--group-by", "colour")
    assert code == 2 and '"colour" is not a grouping' in err


def test_load_any_opens_tables_and_traces_alike():
    table = load_any(example_path("llm-request.xlsx"))
    assert not table.from_trace and table.profile.settings.arrival_rate == 14
    trace = load_any(FIXTURE, ImportOptions(total=True))
    assert trace.from_trace and is_trace(FIXTURE) and not is_trace(example_path("llm-request.xlsx"))
    assert trace.profile.total > 3 * expect.mean_step_ms(expect.load(FIXTURE))
    assert any("far from the median" in str(w) for w in trace.warnings)


def test_grouping_a_trace_against_a_workbook_imported_from_one_is_refused_with_why(capsys, tmp_path):
    """AFTER is imported as the workbook was; --group-by asked for another grouping and got the generic "compare
    like with like"."""
    workbook = tmp_path / "before.xlsx"
    assert main(["import", str(FIXTURE), "--out", str(workbook)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "compare", str(workbook), str(FIXTURE), "--group-by", "op")
    assert code == 2 and out == ""
    assert "--group-by: BEFORE was imported from a trace (" in err and "leave it out" in err
    code, out, err = run(capsys, "compare", str(workbook), str(FIXTURE))
    assert code == 0 and "saving -0" not in out, out


def test_the_tables_columns_stay_in_line_whatever_a_figure_needs(capsys):
    """A trace halved in time has components of a few microseconds: "0.000679 ms" is wider than the After column's
    ten characters and pushed Planned, Measured and the verdict one place right on its row."""
    code, out, _ = run(
        capsys, "compare", str(expect.FIXTURES / "torch_fork.json.gz"), str(expect.FIXTURES / "torch_fork_half.json.gz")
    )
    assert code == 0
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("Component"))
    table = lines[top : next(i for i in range(top, len(lines)) if lines[i].startswith("Total")) + 1]
    assert any("0.000679 ms" in line for line in table)
    ends = {
        tuple(i + 1 for i, ch in enumerate(line) if ch in "s×" and line[i + 1 : i + 2] in (" ", ""))
        for line in table[2:]
    }
    assert len(ends) == 1, table  # every row's figures end where the others' do
