"""Every command takes a profiler trace where it takes a profile, as the window's File → Open does, and an
option given twice is never silently reduced to its last value."""

import argparse
import csv
import json
from pathlib import Path

import pytest

from amdahl_desk.cli import main

TRACE = Path(__file__).parents[1] / "traces" / "fixtures" / "torch_epoch.json.gz"
JOB = Path(__file__).parents[1] / "traces" / "fixtures" / "gloo"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def imported(capsys, *options):
    code, out, _ = run(capsys, "import", TRACE, "--json", *options)
    assert code == 0
    return json.loads(out)


def test_report_reads_a_trace_with_the_imports_defaults(capsys):
    components = imported(capsys)["components"]
    code, out, err = run(capsys, "report", TRACE, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert [c["name"] for c in report["components"]] == [c["name"] for c in components]
    assert report["baseline_total"] == pytest.approx(sum(c["time"] for c in components))


def test_text_report_of_a_trace_names_the_trace(capsys):
    code, out, err = run(capsys, "report", TRACE)
    assert code == 0, err
    assert "torch_epoch.json.gz" in out and "not an xlsx workbook" not in err


def test_export_writes_a_traces_components(capsys, tmp_path):
    names = [c["name"] for c in imported(capsys)["components"]]
    code, out, err = run(capsys, "export", TRACE, "--out", tmp_path, "--format", "csv")
    assert code == 0, err
    (written,) = [Path(line) for line in out.splitlines()]
    with written.open(newline="") as f:
        rows = list(csv.reader(f))
    assert [r[0] for r in rows[1:] if r and r[0] in names] == names


def test_compare_reads_two_traces(capsys):
    code, out, err = run(capsys, "compare", TRACE, TRACE, "--json")
    assert code == 0, err
    assert json.loads(out)["components"]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("report", TRACE, "--target", "10 ms", "--target", "12 ms"), "--target"),
        (("import", TRACE, "--group-by", "op", "--group-by", "gpu"), "--group-by"),
        (("import", TRACE, "--top", "3", "--top", "4"), "--top"),
        (("export", TRACE, "--out", "x", "--out", "y"), "--out"),
        (("compare", TRACE, TRACE, "--tolerance", "1%", "--tolerance", "2%"), "--tolerance"),
        (("job", JOB, "--step", "Foo", "--step", "ProfilerStep#"), "--step"),
        (("whatif", JOB, "--speedup", "aten::mm=2", "--on-ranks", "0", "--on-ranks", "1"), "--on-ranks"),
        (("whatif", JOB, "--speedup", "aten::mm=2", "--rank", "0", "--rank", "1"), "--rank"),
        (("whatif", JOB, "--speedup", "aten::mm=2", "--step", "ProfilerStep#", "--step", "ProfilerStep#"), "--step"),
    ],
)
def test_an_option_given_twice_is_refused_naming_both_values(capsys, args, option):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert f"{option} given twice" in err and "give it once" in err
    assert "Traceback" not in err


def test_no_command_keeps_the_last_of_a_single_valued_option():
    """Every command's options that take one value refuse a second (those that gather, like --speedup, apart)."""
    from amdahl_desk.cli import _parser

    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    lax = [
        f"{name} {action.option_strings[0]}"
        for name, command in sub.choices.items()
        for action in command._actions
        if type(action) is argparse._StoreAction and action.option_strings and action.nargs is None
    ]
    assert lax == []


def test_steps_to_leave_out_given_twice_leave_out_both(capsys):
    steps = {s["name"]: s for s in imported(capsys)["step_list"]}
    first, second = sorted(steps)[:2]
    result = imported(capsys, "--exclude-steps", first, "--exclude-steps", second)
    left_out = {s["name"] for s in result["step_list"] if s["excluded"]}
    assert left_out == {first, second}
    kept = [s["time"] for name, s in steps.items() if name not in (first, second)]
    assert result["step_time"] == pytest.approx(sum(kept) / len(kept))


def test_a_step_to_leave_out_that_the_trace_lacks_is_refused(capsys):
    code, out, err = run(capsys, "import", TRACE, "--exclude-steps", "ProfilerStep#1,Nope#9")
    assert code == 2 and out == ""
    assert '"Nope#9"' in err and "ProfilerStep#1" in err


def test_files_exported_from_a_trace_are_named_without_its_format(tmp_path):
    """`export kineto_1gpu_ns_timestamps.json.gz` wrote kineto_1gpu_ns_timestamps.json-breakdown.png and a workbook
    named ….json.xlsx: the names drop what said the trace's format."""
    from amdahl_desk.files.kinds import plain_stem

    trace = Path(__file__).parents[1] / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"
    assert main(["export", str(trace), "--out", str(tmp_path), "--chart", "breakdown"]) == 0
    assert main(["export", str(trace), "--out", str(tmp_path), "--format", "xlsx"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["kineto_1gpu_ns_timestamps-breakdown.png", "kineto_1gpu_ns_timestamps.xlsx"], names
    assert [plain_stem(n) for n in ("rank3.pt.trace.json", "plan.xlsx", "ddp4", "a.b.json")] == [
        "rank3",
        "plan",
        "ddp4",
        "a.b",
    ]
