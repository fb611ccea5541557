"""One registry, one Source per chart: the copy menus, the export dialogs, the slide and the command line select by it."""

import pytest

from amdahl_desk.ui.charts.registry import (
    CHART_TITLES,
    CHARTS,
    COMPARISON_CHARTS,
    ENTRIES,
    JOB_CHARTS,
    MEASURED_CHARTS,
    SLIDE_CHARTS,
    TRACE_CHARTS,
    Source,
    keys,
)

pytestmark = pytest.mark.gui


def menu(window, *path):
    actions = window.menuBar().actions()
    for text in path:
        found = next(a for a in actions if a.text() == text)
        actions = found.menu().actions()
    return [a.text() for a in actions if not a.isSeparator()]


def test_every_chart_has_one_source_and_the_lists_partition_the_registry():
    lists = (CHARTS, MEASURED_CHARTS, COMPARISON_CHARTS, TRACE_CHARTS, JOB_CHARTS)
    assert set().union(*lists) == {e.key for e in ENTRIES}
    assert sum(map(len, lists)) == len(ENTRIES)
    assert MEASURED_CHARTS == ("measured_scaling", "throughput", "karp_flatt")
    assert COMPARISON_CHARTS == ("comparison", "comparison-slide")
    assert TRACE_CHARTS == ("critical_path",)
    assert JOB_CHARTS == ("job_ranks", "job_steps", "job_skew")
    assert SLIDE_CHARTS == (
        "breakdown",
        "speedup",
        "critical_path",
        "job_ranks",
        "job_steps",
        "job_skew",
        "distribution",
        "load",
        "measured_scaling",
    )


def test_the_command_line_lists_each_source_as_the_registry_does():
    from amdahl_desk.cli.export import CHART_KEYS, COMPARE_CHART_KEYS, JOB_CHART_KEYS, TRACE_CHART_KEYS

    assert (keys(Source.PROFILE), keys(Source.COMPARISON)) == (CHART_KEYS, COMPARE_CHART_KEYS)
    assert keys(Source.TRACE) == TRACE_CHART_KEYS
    assert keys(Source.JOB) == JOB_CHART_KEYS


def test_menus_and_the_export_dialog_select_by_source(window, monkeypatch):
    from amdahl_desk.ui.charts.export_dialog import ExportDialog

    assert menu(window, "E&xport", "Copy C&hart Image") == [
        CHART_TITLES[k]
        for k in (
            "breakdown",
            "speedup",
            "scaling",
            "critical_path",
            "job_ranks",
            "job_steps",
            "job_skew",
            "distribution",
            "tornado",
            "load",
            "cost",
        )
    ]
    assert menu(window, "E&xport", "Copy Measured Chart I&mage") == [CHART_TITLES[k] for k in MEASURED_CHARTS]
    offered = []

    def look(dialog):
        offered.extend(dialog.chart.itemData(i) for i in range(dialog.chart.count()))
        return ExportDialog.DialogCode.Rejected

    monkeypatch.setattr(ExportDialog, "exec", look)
    window.exports.export_dialog("throughput")
    # the example has no trace and no job: their charts are not offered; a comparison exports from its own tab
    assert offered == list(keys(Source.PROFILE)) + list(MEASURED_CHARTS)


def test_the_slide_shows_the_measured_chart_only_when_there_are_runs(window):
    from tests.ui.charting import chart_widget

    doc = window.doc
    empty = chart_widget("slide", doc.profile, doc.analysis, (1280, 720), fit=doc.fit)
    assert empty.shown == ("breakdown", "speedup") and empty.parts["speedup"].isVisible()
    empty.close()
    window.fit_panel.model.set_cells(
        [(r, c, v) for r, row in enumerate([("1", "100"), ("2", "60"), ("4", "40")]) for c, v in enumerate(row)],
        "Paste",
    )
    slide = chart_widget("slide", doc.profile, doc.analysis, (1280, 720), fit=doc.fit)
    assert slide.shown == ("breakdown", "measured_scaling")  # the runs against the model carry the answer now
    assert slide.parts["measured_scaling"].isVisible() and "speedup" not in slide.parts
    slide.close()


def test_a_chart_whose_source_is_missing_is_refused_by_name(window, tmp_path):
    from amdahl_desk.model.profile import Profile

    window.doc.reset(Profile(), None)
    assert not window.exports.export_chart_to(tmp_path / "b.png", "breakdown", "png")
    assert "components with times above 0" in window.errors[-1]
    # A measured chart without runs would be an empty frame: refused, saying where runs come from.
    for name in MEASURED_CHARTS:
        for fmt in ("png", "svg", "pdf"):
            assert not window.exports.export_chart_to(tmp_path / f"{name}.{fmt}", name, fmt)
            assert "there are none yet" in window.errors[-1] and "Measurements tab" in window.errors[-1]
            assert not (tmp_path / f"{name}.{fmt}").exists()
        assert not window.exports.copy_chart(name)
        assert "measured runs" in window.errors[-1]
    assert not window.exports.copy_chart("slide")
