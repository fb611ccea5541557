"""A grouping that explains almost nothing (one "Unattributed" row) says which grouping would, on the command
line and in the import dialog; one that explains the trace says nothing more."""

from __future__ import annotations

from pathlib import Path

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces import load_trace
from amdahl_desk.model.grouping_fit import grouping_fit, other_groupings
from amdahl_desk.model.traces import ImportOptions

from .synthetic import Kineto

EPOCH = Path(__file__).parent / "fixtures" / "torch_epoch.json.gz"
HINT = (
    "grouped by annotation, the import explains almost nothing (1 component, 100% of the time in no annotation): "
    "--group-by op puts 90% of it into 3 operators"
)


def unannotated(path: Path) -> Path:
    """Three 1,000 µs steps of conv 600 + relu 200 + linear 100 µs (100 µs in no op); the one annotation,
    "checkpoint", lies after the steps. Grouped by annotation (the default, as an annotation exists) every
    step is Unattributed; grouped by op, 900 of 1,000 µs are in 3 operators: 90%."""
    t = Kineto()
    for i in range(3):
        start = i * 1000
        t.step(i + 1, start, 1000)
        t.op("aten::conv2d", start + 10, 600)
        t.op("aten::relu", start + 620, 200)
        t.op("aten::linear", start + 830, 100)
    t.x("user_annotation", "checkpoint", 3000, 50)
    return t.write(path)


def test_one_unattributed_row_explains_little_and_op_explains_most(tmp_path):
    trace = load_trace(unannotated(tmp_path / "t.json"))
    result = trace.summarise(ImportOptions())
    assert result.group_by == "annotation" and [c.name for c in result.components] == ["Unattributed"]
    fit = grouping_fit(result)
    assert (fit.work_rows, fit.work_share, fit.rows, fit.explains_little) == (0, 0.0, 1, True)
    [better] = other_groupings(result, lambda g: trace.summarise(ImportOptions(group_by=g)))
    assert better.group_by == "op" and not better.explains_little
    assert (better.work_rows, better.work_share) == (3, pytest.approx(0.9))


def test_annotations_that_explain_the_steps_say_nothing_more(capsys):
    trace = load_trace(EPOCH)
    result = trace.summarise(ImportOptions())
    assert grouping_fit(result).work_share > 0.9
    assert other_groupings(result, lambda g: trace.summarise(ImportOptions(group_by=g))) == ()
    assert main(["import", str(EPOCH)]) == 0
    assert "explains almost nothing" not in capsys.readouterr().err


def test_import_says_which_grouping_would_explain_the_trace(tmp_path, capsys):
    path = unannotated(tmp_path / "t.json")
    assert main(["import", str(path), "--out", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert f"t.json: warning: {HINT}\n" in err
    assert "wrote" in err and ": 1 component, " in err  # not "1 components"
    assert main(["import", str(path), "--group-by", "op"]) == 0
    assert "explains almost nothing" not in capsys.readouterr().err


def test_report_of_such_a_trace_says_how_to_import_it_grouped_so(tmp_path, capsys):
    path = unannotated(tmp_path / "t.json")
    assert main(["report", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{HINT} (amdahl-desk import TRACE --group-by op --out PROFILE.xlsx)" in err


def test_compare_of_such_traces_says_how_compare_groups_them(tmp_path, capsys):
    path = unannotated(tmp_path / "t.json")
    assert main(["compare", str(path), str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{HINT} (amdahl-desk compare BEFORE AFTER --group-by op)" in err
    assert main(["compare", str(path), str(path), "--group-by", "op"]) == 0
    assert "explains almost nothing" not in capsys.readouterr().err


@pytest.mark.gui
def test_the_import_dialog_says_which_grouping_would_and_drops_it_once_chosen(qtbot, tmp_path):
    from ..ui.panels import import_dialog

    dialog = import_dialog(qtbot, unannotated(tmp_path / "t.json"))
    qtbot.waitUntil(lambda: dialog.shown.suggestion.isVisible(), timeout=30_000)
    assert dialog.shown.total_label.text().endswith(" · 1 component")
    assert dialog.shown.suggestion.text() == (
        "Grouped by annotation, the import explains almost nothing (1 component, 100% of the time in no "
        'annotation): Group by "operators by self time" puts 90% of it into 3 operators'
    )
    with qtbot.waitSignal(dialog.previewed, timeout=10_000):
        dialog.grouping.setCurrentIndex(dialog.grouping.findData("op"))
    qtbot.waitUntil(lambda: dialog.pending is None and not dialog.debounce.isActive(), timeout=10_000)
    assert dialog.shown.suggestion.isHidden()
    dialog.reject()


def idle(path: Path) -> Path:
    """Three 1,000 µs steps with one 100 µs op each and nothing else: no annotation, and 900 of every 1,000 µs in
    no operator. Grouped by op, 100 of 1,000 µs are named (10%); no grouping explains the trace."""
    t = Kineto()
    for i in range(3):
        t.step(i + 1, i * 1000, 1000)
        t.op("aten::add", i * 1000 + 10, 100)
    t.x("user_annotation", "checkpoint", 3000, 50)
    return t.write(path)


def test_a_trace_no_grouping_explains_says_so_with_what_each_named(tmp_path, capsys):
    """It printed nothing: a user saw one Unattributed row and no word on why, nor that op would not help."""
    path = idle(tmp_path / "i.json")
    assert main(["import", str(path)]) == 0
    err = capsys.readouterr().err
    assert (
        "grouped by annotation, the import explains almost nothing (1 component, 100% of the time in no annotation), "
        "and no other grouping does better (--group-by op: one operator holds 10% of the time)"
    ) in err
