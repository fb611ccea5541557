"""The comparison chart and slide: registered, exported from the window and the command line, readable."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QColor, QGuiApplication, QImage

from amdahl_desk.files import load_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.comparison import compare
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.resources import example_path
from amdahl_desk.ui.charts.base import Chart
from amdahl_desk.ui.charts.registry import CHARTS, COMPARISON_CHARTS, chart_entry
from tests.ui.charting import new_chart

pytestmark = pytest.mark.gui

BEFORE, AFTER = example_path("llm-request.xlsx"), example_path("llm-request-after.xlsx")


@pytest.fixture
def llm_comparison():
    before = load_profile(BEFORE).profile
    return before, compare(before, load_profile(AFTER).profile)


def inked(image: QImage, step: int = 8) -> float:
    """The share of sampled pixels that are not white: a blank or nearly blank image has almost none."""
    white = QColor("white").rgb()
    samples = [
        image.pixel(x, y) != white for x in range(0, image.width(), step) for y in range(0, image.height(), step)
    ]
    return sum(samples) / len(samples)


def test_registered_as_charts_that_need_a_comparison():
    from amdahl_desk.cli.export import COMPARE_CHART_KEYS

    assert COMPARISON_CHARTS == COMPARE_CHART_KEYS
    for key in COMPARISON_CHARTS:
        entry = chart_entry(key)
        chart = new_chart(entry.key)
        assert isinstance(chart, Chart) and not entry.on_screen
        chart.deleteLater()
        assert key not in CHARTS  # the profile's export dialog and --chart list stay as they were


def test_the_generic_export_refuses_a_comparison_chart_clearly(qtbot, tmp_path, llm_comparison):
    from tests.ui.charting import export_chart

    before, _ = llm_comparison
    with pytest.raises(ProfileError, match="Compare With"):
        export_chart(before, analyse(before), "comparison", "png", tmp_path / "x.png")


@pytest.mark.parametrize("name", COMPARISON_CHARTS)
@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_every_comparison_chart_in_every_format(qtbot, tmp_path, llm_comparison, name, fmt):
    from tests.ui.charting import export_comparison

    _, c = llm_comparison
    path = export_comparison(c, name, fmt, tmp_path / f"{name}.{fmt}", boundary="No-queue request latency")
    data = path.read_bytes()
    assert len(data) > 10_000
    if fmt == "png":
        image = QImage(str(path))
        assert (image.width(), image.height()) == (1920, 1080)
        assert inked(image) > 0.05
    elif fmt == "svg":
        text = data.decode("utf-8")
        assert "<svg" in text and "Autoregressive decode" in text and "530 ms" in text
    else:
        assert data.startswith(b"%PDF")


def test_the_slide_title_states_predicted_against_measured(qtbot, llm_comparison):
    from tests.ui.charting import comparison_widget

    _, c = llm_comparison
    slide = comparison_widget("comparison-slide", c, (1920, 1080), boundary="No-queue request latency")
    try:
        # 1,500/1,050 = 1.43× promised; 1,500/1,170 = 1.28× measured; 1,170 − 1,050 = 120 ms
        assert slide.title.text().replace("\u00a0", " ") == "Predicted 1.43×, measured 1.28×: 120 ms short of the plan"
        assert [v.text() for v in slide.values] == ["1.43×", "1.28×", "120 ms", "45%"]
        assert "Autoregressive decode got 1.7× instead of 2×" in slide.footer.text()
        assert "No-queue request latency" in slide.subtitle.text()
        # Nothing cut: the title and the footer fit inside the slide.
        assert slide.footer.geometry().bottom() <= 1080 and slide.title.geometry().right() <= 1920
    finally:
        slide.close()
        slide.deleteLater()


def test_export_from_the_window_through_the_menu(qtbot, tmp_path, monkeypatch):
    from amdahl_desk.ui.charts.export_dialog import ExportDialog
    from amdahl_desk.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show_error = lambda title, text: pytest.fail(text)
    assert win.files.open_path(BEFORE, ask=False)
    assert not win.export_comparison_action.isEnabled()
    assert win.compare_with(AFTER)
    target = tmp_path / "slide.svg"
    monkeypatch.setattr(win, "choose_file", lambda save, suggested="", filters="", title="": str(target))

    def accept_as_svg(dialog):
        dialog.format.setCurrentIndex(dialog.format.findData("svg"))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", accept_as_svg)
    win.export_comparison_action.trigger()
    assert target.exists() and target.stat().st_size > 10_000
    assert "Predicted 1.43×, measured 1.28×" in target.read_text(encoding="utf-8")
    panel = win.comparison_panel
    assert panel.copy_image("comparison-slide")
    image = QGuiApplication.clipboard().image()
    assert (image.width(), image.height()) == (1920, 1080)
    win.doc.undo_stack.setClean()


def test_headless_export_of_the_comparison(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "amdahl_desk", "export", str(BEFORE), "--compare", str(AFTER), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "llm-request-vs-llm-request-after-comparison-slide.png",
        "llm-request-vs-llm-request-after-comparison.png",
    ]
    assert all((out / n).stat().st_size > 10_000 for n in names)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pair", "a=b"], "--pair needs --compare"),
        (["--compare", str(example_path())], "no component in common"),
        (["--compare", str(AFTER), "--chart", "speedup"], "not a comparison chart"),
        (["--compare", str(AFTER), "--format", "xlsx"], "--format png, svg or pdf"),
        (["--compare", str(AFTER), "--pair", "Nothing=Decode"], "not a component of the before profile"),
    ],
)
def test_headless_export_of_the_comparison_refuses_clearly(tmp_path, capsys, args, message):
    from amdahl_desk.cli import main

    assert main(["export", str(BEFORE), "--out", str(tmp_path), *args]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
