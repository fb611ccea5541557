"""One classify(path): every suffix a profile or a trace can have, and the three lists that disagreed are one."""

import pytest

from amdahl_desk import files
from amdahl_desk.files import Kind, classify, is_trace
from amdahl_desk.files.traces import TraceError, detect_format
from amdahl_desk.files.traces.detect import trace_files


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("p.xlsx", Kind.WORKBOOK),
        ("p.XLSM", Kind.WORKBOOK),
        ("p.csv", Kind.TABLE),
        ("p.tsv", Kind.TABLE),
        ("p.xls", Kind.REFUSED),
        ("p.ods", Kind.REFUSED),
        ("t.json", Kind.TRACE),
        ("t.json.gz", Kind.TRACE),
        ("t.pt.trace.json.gz", Kind.TRACE),
        ("t.speedscope", Kind.TRACE),
        ("t.nsys-rep", Kind.TRACE),
        ("t.qdrep", Kind.TRACE),
        ("t.sqlite", Kind.TRACE),
        ("t.pdf", Kind.UNKNOWN),
    ],
)
def test_classify_by_name(tmp_path, name, kind):
    assert classify(tmp_path / name) is kind
    assert is_trace(tmp_path / name) is (kind is Kind.TRACE)


def test_a_csv_is_a_trace_when_its_header_is_an_nsys_report(tmp_path):
    nsys = tmp_path / "kern.csv"
    nsys.write_text("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n")
    table = tmp_path / "table.csv"
    table.write_text("Component,Time (ms)\na,1\n")
    assert classify(nsys) is Kind.TRACE and classify(table) is Kind.TABLE
    assert classify(nsys, look_inside=False) is Kind.TABLE  # while dragging, nothing is read
    assert classify(tmp_path) is Kind.TRACE  # a folder of ranks


@pytest.mark.gui  # imports the window's import controller
def test_one_list_of_trace_suffixes(tmp_path):
    from amdahl_desk.files import kinds
    from amdahl_desk.files.traces import detect
    from amdahl_desk.ui.import_ import trace_import

    assert files.TRACE_SUFFIXES is kinds.TRACE_SUFFIXES
    assert not hasattr(detect, "TRACE_SUFFIXES") and not hasattr(trace_import, "TRACE_SUFFIXES")
    for suffix in kinds.TRACE_SUFFIXES:
        (tmp_path / f"rank0{suffix}").write_bytes(b"{}")
    assert len(trace_files(tmp_path)) == len(kinds.TRACE_SUFFIXES)


def test_an_nsys_report_file_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "run.nsys-rep"
    path.write_bytes(b"\x00\x01binary")
    with pytest.raises(TraceError, match="Nsight Systems report.*nsys stats"):
        detect_format(path)
