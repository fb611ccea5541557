"""Charts and slides as files: sizes, real vectors, readable text, the clipboard and the headless command."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from PySide6.QtGui import QGuiApplication, QImage

from amdahl_desk.files import load_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Profile
from amdahl_desk.model.values import parse_size
from amdahl_desk.present.slide import slide_title
from amdahl_desk.ui.charts.export import CHARTS
from amdahl_desk.ui.charts.style import slide_style
from tests.ui.charting import SIZE, chart_widget, export_chart, export_of, not_blank

from .renders import likeness, rsvg

pytestmark = pytest.mark.gui


@pytest.fixture
def training(example):
    profile = load_profile(example).profile
    return profile, analyse(profile)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (3840, 2160), (1000, 1000)])
def test_png_presets_and_custom_sizes(qtbot, training, tmp_path, size):
    profile, analysis = training
    path = export_chart(profile, analysis, "slide", "png", tmp_path / "s.png", size)
    image = QImage(str(path))
    assert (image.width(), image.height()) == size
    assert 0.03 < not_blank(image) < 0.6


def test_a_curve_beyond_its_axes_is_cut_at_their_edge(qtbot, everything, tmp_path):
    """The ideal line of the measured chart runs off the top of its axes: in the SVG it stops there, as in the PNG."""
    import re

    import pyqtgraph as pg
    from PySide6.QtCore import QPoint

    from .renders import pixels

    i = everything
    widget = chart_widget("measured_scaling", i.profile, i.analysis, SIZE, False, i.selected, i.fit, i.comparison)
    (plot,) = widget.findChildren(pg.PlotWidget)
    view = plot.viewportTransform().mapRect(plot.getPlotItem().vb.sceneBoundingRect())
    view.translate(plot.viewport().mapTo(widget, QPoint(0, 0)))
    widget.close()
    svg = export_of(i, "measured_scaling", "svg", tmp_path / "m.svg")
    png = pixels(QImage(str(export_of(i, "measured_scaling", "png", tmp_path / "m.png"))))
    drawn = pixels(rsvg(svg, SIZE))
    above = view.top() - 12  # a row over the axes, under the title
    crossings = []
    for shape in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}path"):
        points = [float(v) for v in re.findall(r"-?[\d.]+", shape.get("d", ""))]
        pairs = list(zip(points[0::2], points[1::2], strict=False))
        if not any(view.contains(x, y) for x, y in pairs):
            continue  # not a curve of the plot
        for (x0, y0), (x1, y1) in zip(pairs, pairs[1:], strict=False):
            if y1 < above <= y0 and view.left() < x0 < view.right():
                crossings.append((round(x0 + (x1 - x0) * (above - y0) / (y1 - y0)), round(above)))
    assert crossings, "no curve runs past the top of its axes: the check has nothing to look at"
    for cx, cy in crossings:
        assert png[cy - 2 : cy + 3, cx - 2 : cx + 3].min() > 0.9  # the PNG shows nothing there
        assert drawn[cy - 2 : cy + 3, cx - 2 : cx + 3].min() > 0.9, f"a curve drawn past its axes at {(cx, cy)}"


@pytest.mark.parametrize("chart", ["slide", "comparison"])
def test_the_likeness_check_rejects_qt_svg_as_written(qtbot, everything, tmp_path, chart):
    """Qt's own SVG (curves in data units, strokes kept thin by a vector effect) draws as blobs in librsvg."""
    from amdahl_desk.ui.charts.svg_render import qt_svg

    i = everything
    png = QImage(str(export_of(i, chart, "png", tmp_path / "chart.png")))
    widget = chart_widget(chart, i.profile, i.analysis, SIZE, False, i.selected, i.fit, i.comparison)
    (tmp_path / "qt.svg").write_bytes(qt_svg(widget, SIZE, chart))
    widget.close()
    drawn = likeness(png, rsvg(tmp_path / "qt.svg", SIZE))
    assert not drawn.matches(), drawn
    other = QImage(str(export_of(i, "scaling", "png", tmp_path / "scaling.png")))
    assert not likeness(png, other).matches()  # two different charts are told apart


def test_svg_is_real_vectors_with_text(qtbot, training, tmp_path):
    profile, analysis = training
    path = export_chart(profile, analysis, "scaling", "svg", tmp_path / "scaling.svg")
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("viewBox") == "0 0 1920 1080"
    assert not list(root.iter(f"{ns}image")), "raster images inside the SVG"
    texts = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert "GPUs N" in texts and "1,024" in texts
    assert len(list(root.iter(f"{ns}path"))) + len(list(root.iter(f"{ns}polyline"))) > 10


def test_pdf_page_is_the_slide_size(qtbot, training, tmp_path):
    profile, analysis = training
    path = export_chart(profile, analysis, "slide", "pdf", tmp_path / "s.pdf")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", data)
    assert box and (float(box.group(1)), float(box.group(2))) == pytest.approx((1440, 810), abs=1)


def test_slide_text_is_readable_from_the_back_of_the_room(qtbot, training):
    profile, analysis = training
    style = slide_style(1920)
    assert style.font().pixelSize() >= 24
    widget = chart_widget("slide", profile, analysis, (1920, 1080))
    assert widget.parts["breakdown"].plot.getAxis("bottom").style["tickFont"].pixelSize() >= 24
    assert widget.title.font().pixelSize() >= 40
    assert widget.title.text().replace("\u00a0", " ") == slide_title(profile, analysis).replace("\u00a0", " ")
    assert "1.82× end to end (ceiling 2.5×)" in widget.title.text().replace("\u00a0", " ")
    widget.close()


def test_the_slides_speedup_chart_follows_the_plan_not_a_row_selected_outside_it(qtbot, training):
    profile, analysis = training
    opts = profile.optimizations
    ticked = [j for j, o in enumerate(opts) if o.enabled]
    unticked = next(j for j, o in enumerate(opts) if not o.enabled)
    widget = chart_widget("slide", profile, analysis, (1920, 1080), row=unticked)
    try:
        assert widget.shown == ("breakdown", "speedup")  # no ranges, load or runs: the speedup carries the answer
        title = widget.parts["speedup"].drawn.title.replace("\u00a0", " ")
        assert opts[ticked[0]].name in title and opts[unticked].name not in title, title
    finally:
        widget.close()
    both = Profile(profile.components, [replace(o, enabled=o.enabled or j == unticked) for j, o in enumerate(opts)])
    widget = chart_widget("slide", both, analyse(both), (1920, 1080), row=unticked)  # ticked now: that one
    try:
        assert opts[unticked].name in widget.parts["speedup"].drawn.title.replace("\u00a0", " ")
    finally:
        widget.close()


def test_transparent_png(qtbot, training, tmp_path):
    profile, analysis = training
    image = QImage(str(export_chart(profile, analysis, "speedup", "png", tmp_path / "t.png", transparent=True)))
    assert image.hasAlphaChannel() and image.pixelColor(2, 2).alpha() == 0


def test_bad_size_and_chart_names():
    assert parse_size("1920x1080") == (1920, 1080)
    assert parse_size("800×600") == (800, 600)
    for bad in ("big", "10x10", "1920"):
        with pytest.raises(ValueError):
            parse_size(bad)


def test_copy_slide_to_clipboard(window):
    assert window.exports.copy_chart("slide")
    image = QGuiApplication.clipboard().image()
    assert (image.width(), image.height()) == (1920, 1080)


def test_export_from_the_window(window, tmp_path):
    assert window.exports.export_chart_to(tmp_path / "x", "breakdown", "svg")
    assert (tmp_path / "x.svg").exists()
    window.files.new_document()
    assert not window.exports.export_chart_to(tmp_path / "y.png", "slide", "png")
    assert "nothing to chart" in window.errors[-1]


def test_the_window_refuses_to_copy_or_export_a_chart_that_draws_nothing(window, tmp_path):
    """With no optimization the speedup against k draws nothing: Copy and Export say what it needs, write nothing."""
    window.doc.set_optimizations([], "Remove the optimizations")
    assert not window.exports.copy_chart("speedup")
    assert "add an optimization" in window.errors[-1]
    assert not window.exports.export_chart_to(tmp_path / "s.png", "speedup", "png")
    assert "add an optimization" in window.errors[-1] and not (tmp_path / "s.png").exists()
    assert window.exports.copy_chart("breakdown")
    window.doc.change_settings("Clear the arrival rate", arrival_rate=None)
    assert not window.exports.export_chart_to(tmp_path / "l.png", "load", "png")  # latency against no load
    assert "set an arrival rate" in window.errors[-1] and not (tmp_path / "l.png").exists()


def run_cli(*args, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "amdahl_desk", *args], capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path
    )


def test_headless_export_command(tmp_path, example):
    out = tmp_path / "out"
    proc = run_cli(
        "export", str(example), "--out", str(out), "--format", "svg", "--size", "1280x720", tmp_path=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    paths = proc.stdout.split()
    # The training example has no arrival rate and no ranges: "all" leaves out latency against load and the odds.
    left_out = ("load", "distribution", "tornado")
    assert [os.path.basename(p) for p in paths] == [f"training-iteration-{c}.svg" for c in CHARTS if c not in left_out]
    assert all(os.path.getsize(p) > 1000 for p in paths)
    proc = run_cli(
        "export", str(example), "--out", str(out), "--format", "png", "--chart", "scaling", tmp_path=tmp_path
    )
    assert QImage(proc.stdout.strip()).width() == 1920


def test_headless_export_converts_csv_to_workbook_and_back(tmp_path):
    (tmp_path / "p.csv").write_text("Stage,Duration (s)\nprefill,0.3\ndecode,0.9\n")
    proc = run_cli("export", "p.csv", "--out", "conv", "--format", "xlsx", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert load_profile(tmp_path / "conv" / "p.xlsx").profile.total == pytest.approx(1.2)
    proc = run_cli("export", str(tmp_path / "conv" / "p.xlsx"), "--out", "conv", "--format", "csv", tmp_path=tmp_path)
    assert load_profile(proc.stdout.strip()).profile.components[1].name == "decode"


def test_headless_export_bad_input(tmp_path, example):
    proc = run_cli("export", str(example), "--out", "o", "--chart", "pie", tmp_path=tmp_path)
    assert proc.returncode == 2 and '"pie" is not a chart' in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("export", str(example), "--out", "o", "--size", "huge", tmp_path=tmp_path)
    assert proc.returncode == 2 and "--size" in proc.stderr


@pytest.mark.parametrize("chart", ["speedup", "breakdown"])
def test_charts_that_keep_pixmaps_on_screen_export_vectors(qtbot, training, tmp_path, chart):
    """The speedup chart keeps its curves as pixmaps on screen (a k step copies them); an SVG has no raster."""
    profile, analysis = training
    path = export_chart(profile, analysis, chart, "svg", tmp_path / f"{chart}.svg")
    root = ET.parse(path).getroot()
    assert not list(root.iter("{http://www.w3.org/2000/svg}image")), "raster images inside the SVG"
