"""One contract every registered chart passes, the day it is registered: it draws an empty, a one-component,
a 10,000-component and an imported profile; it exports PNG, SVG and PDF; its title and labels fit inside the
picture; the same view gives the same picture."""

from __future__ import annotations

import functools
import math
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QLineF, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QFontMetrics, QImage, QPainter, QPolygonF
from PySide6.QtWidgets import QLabel

from amdahl_desk.files import load_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.files.traces.linked import linked_figures
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.comparison import compare
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.fit import fit_measurements
from amdahl_desk.model.job.analysis import analyse_job
from amdahl_desk.model.job.join import match
from amdahl_desk.model.measurements import Measurements
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.present.job_charts import JobFigures
from amdahl_desk.resources import example_path
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export
from amdahl_desk.ui.charts.registry import ENTRIES, Source, chart_entry
from amdahl_desk.ui.charts.style import SCREEN

from ..traces import expect
from .charting import SIZE, export_of, legend_problems, not_blank, text_document
from .renders import likeness, poppler, rsvg

pytestmark = pytest.mark.gui

KEYS = [e.key for e in ENTRIES]
GLOO = Path(__file__).parents[1] / "traces" / "fixtures" / "gloo"
RUNS = Measurements.of([(1, 1000.0), (2, 540.0), (4, 310.0), (8, 200.0), (16, 160.0)])


def _one() -> Profile:
    return Profile(
        [Component("the only stage", 12.5, Scaling.PARALLEL)], [Optimization("faster", ("the only stage",), 2)]
    )


def _huge() -> Profile:
    kinds = list(Scaling)
    comps = [Component(f"component {i:05d}", 1.0 + (i * 7919) % 97, kinds[i % 3]) for i in range(10_000)]
    opts = [
        Optimization(f"faster {j}", tuple(f"component {i:05d}" for i in range(j, 10_000, 500)), 2.0) for j in (0, 1)
    ]
    return Profile(comps, opts)


def _flat(scaling: Scaling) -> Profile:
    """Every component serial (P = 0: each curve but the ideal flat at 1×, on the ceiling) or every one parallel
    (P = 1: no ceiling, three curves on the ideal, the best in the top corner)."""
    comps = [Component("Host work", 100.0, scaling), Component("More of it", 50.0, scaling)]
    opt = Optimization("Faster host work", ("Host work",), 2.0, speedup_low=1.5, speedup_high=3.0, effort=2.0)
    return Profile(comps, [opt])


def _long_names() -> Profile:
    """Fifteen components with long non-ASCII names and times over five decades, four ranged optimizations and a
    target: a profile none of the examples is like."""
    names = [f"Vorverarbeitung und Datenaufbereitung – Ä/Ö/Ü Schritt {i} mit langem Namen" for i in range(15)]
    kinds = list(Scaling)
    comps = [Component(name, 1.7 * 10.0 ** (i % 5), kinds[i % 3]) for i, name in enumerate(names)]
    opts = [
        Optimization(
            f"Schneller: {names[i][:40]} {i}",
            (names[i],),
            3.0 + i,
            speedup_low=1.5 + i,
            speedup_high=5.0 + 2 * i,
            effort=3.0 + i,
        )
        for i in range(4)
    ]
    profile = Profile(comps, opts)
    profile.set_settings(replace(profile.settings, target_time=100.0))
    return profile


def _extreme() -> Profile:
    """Times from 0.001 ms to 10,000,000 ms, k up to 1,000 and a target no plan reaches: axes of millions, and draws
    that differ in the eighth digit."""
    comps = [
        Component("tiny kernel", 0.001, Scaling.PARALLEL),
        Component("another tiny", 0.002, Scaling.PARALLEL),
        Component("medium", 250.0, Scaling.SERIAL),
        Component("huge batch job", 1e7, Scaling.PARALLEL),
    ]
    opts = [
        Optimization("Tiny kernel 1000×", ("tiny kernel",), 1000.0, speedup_low=500.0, speedup_high=1000.0, effort=1.0),
        Optimization("Medium 1000×", ("medium",), 1000.0, speedup_low=100.0, speedup_high=1000.0, effort=2.0),
    ]
    profile = Profile(comps, opts)
    profile.set_settings(replace(profile.settings, target_time=0.5))
    return profile


def _stages() -> Profile:
    """A training step in five stages measured on 8 GPUs, two of four ranged optimizations ticked and a target: the
    scaling curves fan out at 1,024 GPUs, where the best is."""
    comps = [
        Component("Data loading", 120.0, Scaling.SERIAL, time_low=90.0, time_high=160.0),
        Component("Forward", 300.0, Scaling.PARALLEL, time_low=280.0, time_high=330.0),
        Component("Backward", 450.0, Scaling.PARALLEL, time_low=420.0, time_high=500.0),
        Component("All-reduce", 100.0, Scaling.COMMUNICATION, time_low=80.0, time_high=140.0),
        Component("Optimizer", 30.0, Scaling.PARALLEL, time_low=25.0, time_high=40.0),
    ]
    opts = [
        Optimization(
            "Mixed precision",
            ("Forward", "Backward"),
            2.2,
            speedup_low=1.5,
            speedup_high=3.5,
            effort=8.0,
            confidence=0.9,
        ),
        Optimization(
            "Faster loader", ("Data loading",), 2.0, speedup_low=1.2, speedup_high=4.0, effort=3.0, confidence=0.7
        ),
        Optimization(
            "Overlap all-reduce",
            ("All-reduce",),
            3.0,
            False,
            speedup_low=1.5,
            speedup_high=6.0,
            effort=5.0,
            confidence=0.8,
        ),
        Optimization("Fused optimizer", ("Optimizer",), 1.5, False, speedup_low=1.1, speedup_high=2.0, effort=1.0),
    ]
    profile = Profile(comps, opts)
    profile.set_settings(replace(profile.settings, target_time=600.0, baseline_gpus=8))
    return profile


def _with_estimates(profile: Profile) -> Profile:
    """The training example with k as ranges, efforts and odds, as a person gives them: the odds' charts have data."""
    opts = list(profile.optimizations)
    opts[0] = replace(opts[0], speedup_low=2.0, speedup_high=6.0, effort=5.0, confidence=0.8)
    opts[1] = replace(opts[1], speedup_low=1.5, speedup_high=3.0, effort=3.0, confidence=0.9)
    opts[2] = replace(opts[2], speedup_low=1.2, speedup_high=2.5, effort=8.0)
    profile.set_optimizations(opts)
    return profile


def llm_with_ranges() -> Profile:
    """The LLM example as a review meets it: k as ranges with efforts and odds, and a target of 1,000 ms."""
    profile = load_profile(example_path("llm-request.xlsx")).profile
    opts = list(profile.optimizations)
    opts[0] = replace(opts[0], speedup_low=1.5, speedup_high=3.0, effort=10.0, confidence=0.8)
    opts[1] = replace(opts[1], speedup_low=1.2, speedup_high=2.0, effort=4.0, confidence=0.9)
    opts[2] = replace(opts[2], speedup_low=1.5, speedup_high=3.0, effort=3.0)
    profile.set_optimizations(opts)
    profile.set_settings(replace(profile.settings, target_time=1000.0))
    return profile


def trace_with_plan() -> Profile:
    """An imported trace with a plan ticked: its backward pass 2× faster (the sum and the dependencies differ)."""
    profile = import_trace(expect.ONE_GPU).to_profile()
    backward = next(c.name for c in profile.components if "backward" in c.name)
    profile.set_optimizations([Optimization("Faster backward", (backward,), 2.0)])
    return profile


@pytest.fixture(scope="module")
def profiles():
    """The four profiles every chart is drawn from, by name."""
    imported = import_trace(expect.ONE_GPU).to_profile()
    return {
        "empty": Profile(),
        "one": _one(),
        "huge": _huge(),
        "example": load_profile(example_path()).profile,
        "ranges": _with_estimates(load_profile(example_path()).profile),
        "imported": imported,
        "llm-ranges": llm_with_ranges(),
        "trace-plan": trace_with_plan(),
        "stages": _stages(),
        "serial": _flat(Scaling.SERIAL),
        "parallel": _flat(Scaling.PARALLEL),
        "long-names": _long_names(),
        "extreme": _extreme(),
    }


def inputs_for(profile: Profile) -> ChartInputs:
    """What each source needs: the analysis, runs with their fits, a comparison with the profile at 80%, and the
    figures of the trace the profile names (an imported one)."""
    try:
        analysis = analyse(profile)
    except ProfileError:
        return ChartInputs(profile, None)
    after = Profile([c.with_time(c.time * 0.8) for c in profile.components], [], profile.settings, profile.unit)
    trace = linked_figures(profile) if profile.settings.trace_source else None
    return ChartInputs(profile, analysis, 0, fit_measurements(RUNS), compare(profile, after), trace=trace)


@functools.cache
def jobs() -> dict[str, JobFigures]:
    """Jobs every job chart draws: the real two-rank gloo job (3 steps), the hand-worked four ranks (1 step), and 40
    ranks of 3 steps with a straggler at rank 17 (more ranks than an axis names). Written once, read, and removed."""
    with tempfile.TemporaryDirectory(prefix="amdahl-desk-jobs-") as tmp:
        return _jobs_in(tmp)


def _jobs_in(tmp: str) -> dict[str, JobFigures]:
    from ..job.make_jobs import allreduce_job, example

    def figures(folder: Path) -> JobFigures:
        job = analyse_job(match(load_job([str(folder)], "ProfilerStep#")))
        return JobFigures(job, folder.name, (), "ProfilerStep#")

    def written(ranks, name: str) -> Path:
        folder = Path(tmp) / name
        folder.mkdir(parents=True, exist_ok=True)
        for r in ranks:
            r.write(folder)
        return folder

    many = [[10000.0 + 37 * r + 500 * s for s in range(3)] for r in range(40)]
    many[17] = [16000.0, 15000.0, 17000.0]
    return {
        "gloo": figures(GLOO),
        "four": figures(written(example(), "four")),
        "forty": figures(written(allreduce_job(many), "forty")),
    }


def job_inputs(profiles, name: str = "forty") -> ChartInputs:
    return replace(inputs_for(profiles["example"]), job=jobs()[name])


def drawn_from(key: str, profiles, estimates: bool = False) -> ChartInputs:
    """A chart's inputs with data for it: the example's (with ranges, efforts and odds when ``estimates``), or for
    a chart of the trace, the imported profile's; of a job, the example's with a job of 40 ranks."""
    if chart_entry(key).source is Source.TRACE:
        return inputs_for(profiles["imported"])
    if chart_entry(key).source is Source.JOB:
        return job_inputs(profiles)
    profile = profiles["ranges" if estimates else "example"]
    if key == "load" and profile.settings.arrival_rate is None:  # latency against load needs a load to draw
        profile = profile.copy()
        profile.set_settings(replace(profile.settings, arrival_rate=14.0, servers=24))
    return inputs_for(profile)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("name", ["empty", "one", "huge", "imported"])
def test_every_chart_draws_every_kind_of_profile(qtbot, profiles, key, name):
    """On screen, every chart draws what it can (or says there is nothing, where its source is missing)."""
    inputs = inputs_for(profiles[name])
    entry = chart_entry(key)
    chart = make_chart(key, SCREEN)
    qtbot.addWidget(chart)
    chart.resize(900, 600)
    chart.show()
    if entry.source.missing(inputs) is not None:
        if entry.source in (Source.PROFILE, Source.TRACE) and key != "slide":
            chart.show_inputs(inputs)  # an empty view, titled so ("— no data")
            assert "no data" in chart.drawn.title or chart.drawn.title
        with pytest.raises(ProfileError):
            export.chart_widget(make_chart, key, inputs, (640, 360))
        return
    chart.show_inputs(inputs)
    assert chart.drawn is not None


def _image(key: str, inputs: ChartInputs, size=(1280, 720)) -> QImage:
    widget = export.chart_widget(make_chart, key, inputs, size)
    try:
        return export.render_image(widget, size)
    finally:
        widget.close()
        widget.deleteLater()


def _inked(image: QImage) -> float:
    ink = total = 0
    for y in range(0, image.height(), 6):
        for x in range(0, image.width(), 6):
            c = image.pixelColor(x, y)
            total += 1
            ink += c.alpha() > 0 and min(c.red(), c.green(), c.blue()) < 200
    return ink / total


@pytest.mark.parametrize("chart", KEYS)
def test_every_chart_in_every_format_draws_outside_a_browser_as_its_png(qtbot, everything, profiles, tmp_path, chart):
    """The SVG drawn by librsvg and the PDF drawn by poppler look like the PNG, block by block (tests/ui/renders.py)."""
    if chart_entry(chart).source is Source.TRACE:
        everything = inputs_for(profiles["imported"])
    if chart_entry(chart).source is Source.JOB:
        everything = job_inputs(profiles)
    png = QImage(str(export_of(everything, chart, "png", tmp_path / f"{chart}.png")))
    most = 0.9 if chart == "job_steps" else 0.6  # a heat map fills its plot with colour
    assert (png.width(), png.height()) == SIZE and 0.02 < not_blank(png) < most
    svg = export_of(everything, chart, "svg", tmp_path / f"{chart}.svg")
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert not list(root.iter(f"{ns}image")), "raster images inside the SVG"
    assert all(e.get("vector-effect") is None for e in root.iter()), "a stroke only browsers draw thin"
    assert all(e.get("transform") is None for e in root.iter() if e.tag != f"{ns}text"), "geometry not in page units"
    assert sum(1 for _ in root.iter(f"{ns}text")) >= 5, "text drawn as shapes"
    drawn = likeness(png, rsvg(svg, SIZE))
    assert drawn.matches(), f"rsvg-convert draws {chart}.svg unlike its PNG: {drawn}"
    pdf = export_of(everything, chart, "pdf", tmp_path / f"{chart}.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    drawn = likeness(png, poppler(pdf, SIZE))
    assert drawn.matches(), f"pdftoppm draws {chart}.pdf unlike its PNG: {drawn}"


@pytest.mark.parametrize("key", KEYS)
def test_the_same_view_gives_the_same_picture(qtbot, profiles, key):
    inputs = drawn_from(key, profiles, estimates=key == "tornado")  # the example's has no k range: nothing to draw
    assert _image(key, inputs) == _image(key, inputs)


def _labels_fit(widget) -> list[str]:
    """Every title and caption label whose text needs more lines than the label has room for, or is cut."""
    cut = []
    for label in widget.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        metrics = QFontMetrics(label.font())
        room = label.contentsRect()
        flags = int(Qt.TextFlag.TextWordWrap) if label.wordWrap() else 0
        text = label.text() if label.textFormat() != Qt.TextFormat.RichText and "<" not in label.text() else None
        if text is None:
            continue
        needed = metrics.boundingRect(QRect(0, 0, room.width(), 100_000), flags, text)
        if needed.width() > room.width() + 1 or needed.height() > room.height() + 1:
            cut.append(f"{label.objectName() or type(label).__name__}: {text!r}")
    return cut


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_titles_and_labels_fit_inside_the_picture(qtbot, profiles, key, size):
    inputs = drawn_from(key, profiles, estimates=True)
    widget = export.chart_widget(make_chart, key, inputs, size)
    try:
        assert _labels_fit(widget) == []
        for view in widget.findChildren(pg.PlotWidget):
            scene = view.sceneRect()
            plot = view.getPlotItem().vb.sceneBoundingRect()  # what the plot shows: it clips what lies outside
            texts = []
            for item in view.getPlotItem().items:
                if isinstance(item, pg.TextItem) and item.isVisible() and item.toPlainText():
                    box = item.sceneBoundingRect()
                    assert scene.adjusted(-1, -1, 1, 1).contains(box), (key, item.toPlainText(), box, scene)
                    texts.append((item.toPlainText(), box))
                label = getattr(item, "label", None)  # a reference line's label (target, ceiling, p95)
                shown = isinstance(item, pg.InfiniteLine) and item.isVisible() and label is not None
                if shown and label.isVisible() and label.toPlainText():
                    box = label.sceneBoundingRect()
                    assert plot.adjusted(-1, -1, 1, 1).contains(box), (key, label.toPlainText(), box, plot)
                    texts.append((label.toPlainText(), box))
            # No label covers another's text (a total over the target's label, p5's over the median's); boxes may
            # meet in the margin of 4 px round each text.
            overlapping = [
                (a, b)
                for i, (a, box) in enumerate(texts)
                for b, other in texts[i + 1 :]
                if box.adjusted(4, 4, -4, -4).intersects(other.adjusted(4, 4, -4, -4))
            ]
            assert overlapping == [], (key, size, overlapping)
    finally:
        widget.close()
        widget.deleteLater()


# -- legends and labels against lines --------------------------------------------------------------------------
def _legends_cut(widget) -> list[str]:
    """Every rich-text label (a legend: entries that never wrap inside themselves) whose text is wider or taller
    than its room, or that lies outside the picture: an entry cut at its edge, or run into the next chart."""
    cut = []
    picture = widget.rect()
    for label in widget.findChildren(QLabel):
        if not label.isVisible() or not label.text() or "<" not in label.text():
            continue
        room = label.contentsRect()
        doc = text_document(label, label.text())
        placed = QRect(label.mapTo(widget, room.topLeft()), room.size())
        if doc.idealWidth() > room.width() + 1 or doc.size().height() > room.height() + 1:
            cut.append(f"{doc.toPlainText()!r} needs {doc.idealWidth():.0f}×{doc.size().height():.0f}, has {room}")
        elif not picture.contains(placed):
            cut.append(f"{doc.toPlainText()!r} outside the picture")
    return cut


def _segments_through(box: QRectF, polygon) -> bool:
    """Whether a polyline (scene points) passes through ``box``: each segment tested, sampled finely."""
    points = [polygon.at(i) for i in range(polygon.size())]
    for a, b in zip(points, points[1:], strict=False):
        if not all(math.isfinite(v) for v in (a.x(), a.y(), b.x(), b.y())):
            continue
        if max(a.x(), b.x()) < box.left() or min(a.x(), b.x()) > box.right():
            continue
        if max(a.y(), b.y()) < box.top() or min(a.y(), b.y()) > box.bottom():
            continue
        steps = max(1, int(QLineF(a, b).length()))
        for s in range(steps + 1):
            t = s / steps
            if box.contains(QPointF(a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t)):
                return True
    return False


def labels_on_lines(widget) -> list[str]:
    """Each chart label (a text in a plot, a reference line's label) that lies across a line: another reference
    line (target, median, p95, ceiling) or a curve drawn with a pen, inside the label's box less 3 px each side.
    A reference line's own label sits against it, so it is not counted against its own line."""
    found = []
    for view in widget.findChildren(pg.PlotWidget):
        if not view.isVisible():
            continue
        plot = view.getPlotItem()
        vb = plot.vb
        clip = vb.sceneBoundingRect()
        items = [i for i in plot.items if i.isVisible()]
        labels = []
        for item in items:
            if isinstance(item, pg.TextItem) and item.toPlainText():
                labels.append((item.toPlainText(), item.sceneBoundingRect(), None))
            label = getattr(item, "label", None)
            if isinstance(item, pg.InfiniteLine) and label is not None and label.isVisible() and label.toPlainText():
                labels.append((label.toPlainText(), label.sceneBoundingRect(), item))
        lines = []
        for item in items:
            if isinstance(item, pg.InfiniteLine):
                p = vb.mapViewToScene(item.pos())
                low, high = item.span  # the share of the plot it is drawn over, from the bottom (or the left)
                if item.angle % 180 == 90:
                    top, bottom = clip.bottom() - high * clip.height(), clip.bottom() - low * clip.height()
                    lines.append((item, [QPolygonF([QPointF(p.x(), top), QPointF(p.x(), bottom)])]))
                else:
                    left, right = clip.left() + low * clip.width(), clip.left() + high * clip.width()
                    lines.append((item, [QPolygonF([QPointF(left, p.y()), QPointF(right, p.y())])]))
            elif isinstance(item, pg.PlotDataItem):
                pen = item.opts.get("pen")
                if pen is None or pg.mkPen(pen).style() == Qt.PenStyle.NoPen:
                    continue
                curve = item.curve
                if not curve.isVisible():
                    continue
                polygons = curve.getPath().toSubpathPolygons(curve.sceneTransform())
                lines.append(
                    (
                        item,
                        [QPolygonF([q for q in poly if clip.adjusted(-2, -2, 2, 2).contains(q)]) for poly in polygons],
                    )
                )
        for text, box, own in labels:
            inner = box.adjusted(3, 3, -3, -3)
            for line, polygons in lines:
                if line is own:
                    continue
                if any(_segments_through(inner, poly) for poly in polygons):
                    found.append(
                        f"{text!r} on {type(line).__name__} {getattr(line, 'name', lambda: '')() or ''}"
                        f" {len(line.getData()[0]) if isinstance(line, pg.PlotDataItem) else ''}"
                    )
                    break
    return found


def ticks_unreadable(widget) -> list[str]:
    """Each axis's tick labels as drawn that use an exponent ("2e+06"), repeat a neighbour ("1e+07" four times) or
    touch the next one along the axis ("4,000,0005,000,000")."""
    found = []
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    for view in widget.findChildren(pg.PlotWidget):
        if not view.isVisible():
            continue
        for name in ("left", "bottom"):
            axis = view.getPlotItem().getAxis(name)
            if not axis.isVisible() or not axis.style["showValues"]:
                continue
            painter = QPainter(image)
            try:
                _, _, texts = axis.generateDrawSpecs(painter)
            finally:
                painter.end()
            shown = [(rect, text) for rect, _, text in texts if text.strip()]
            shown.sort(key=lambda rt: rt[0].left() if name == "bottom" else rt[0].top())
            for _rect, text in shown:
                if "e+" in text or "e-" in text:
                    found.append(f"{name}: {text!r} in an exponent")
            for (a, ta), (b, tb) in zip(shown, shown[1:], strict=False):
                if ta == tb:
                    found.append(f"{name}: {ta!r} twice")
                if name == "bottom" and a.right() + 2 > b.left() and a.intersects(b.adjusted(-2, 0, 2, 0)):
                    found.append(f"{name}: {ta!r} touches {tb!r}")
    return found


def axis_titles_cut(widget) -> list[str]:
    """Each axis title longer than its axis ("hare of the draw" beside a low plot), or lying on its tick labels."""
    cut = []
    for view in widget.findChildren(pg.PlotWidget):
        if not view.isVisible():
            continue
        for name in ("left", "bottom", "right"):
            axis = view.getPlotItem().getAxis(name)
            label = axis.label
            if not axis.isVisible() or not label.isVisible() or not label.toPlainText().strip():
                continue
            length = axis.geometry().height() if name != "bottom" else axis.geometry().width()
            if label.boundingRect().width() > length + 1:
                cut.append(f"{label.toPlainText()!r}: {label.boundingRect().width():.0f} px on an axis of {length:.0f}")
            title = label.mapRectToParent(label.boundingRect())
            if name == "left" and axis.style["showValues"]:  # the title clear of the widest tick label beside it
                ticks_right = axis.width() - max(0, axis.style["tickLength"]) - axis.style["tickTextOffset"][0]
                if title.right() > ticks_right - axis.textWidth + 0.5:
                    cut.append(f"{label.toPlainText()!r} lies on its tick labels ({axis.textWidth:.0f} px wide)")
            if name == "bottom" and axis.style["showValues"]:  # and below the tick labels
                ticks_bottom = max(0, axis.style["tickLength"]) + axis.style["tickTextOffset"][1] + axis.textHeight
                if title.top() < ticks_bottom - 0.5:
                    cut.append(f"{label.toPlainText()!r} lies on its tick labels ({axis.textHeight:.0f} px high)")
    return cut


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("which", ["ranges", "llm-ranges", "trace-plan", "serial", "parallel", "long-names", "extreme"])
def test_every_legend_entry_is_whole_and_no_label_lies_on_a_line(qtbot, profiles, key, size, which):
    """At both slide sizes, with the odds shown (the training example's, the LLM example's at a 1,000 ms target), on
    a trace with a plan, on a profile all serial or all parallel, on one of long names and on one of extreme times:
    each axis's tick labels are plain numbers that neither repeat nor touch, each legend shows every entry whole inside its chart (never cut, never run into the
    next chart), no label lies across a reference line or a curve, and every axis title is whole and clear of the
    tick labels beside it."""
    inputs = inputs_for(profiles[which])
    if chart_entry(key).source.missing(inputs) is not None:
        inputs = drawn_from(key, profiles, estimates=True)
    try:
        widget = export.chart_widget(make_chart, key, inputs, size)
    except export.NothingToDrawError as refused:  # no k range: the tornado has no bar; no arrival rate: no load
        no_load = key == "load" and inputs.profile.settings.arrival_rate is None
        assert no_load or (key == "tornado" and not any(o.speedup_low for o in inputs.profile.optimizations)), refused
        return
    try:
        assert _legends_cut(widget) == []
        assert legend_problems(widget) == []
        assert labels_on_lines(widget) == []
        assert axis_titles_cut(widget) == []
        assert ticks_unreadable(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


@pytest.mark.parametrize("key", [e.key for e in ENTRIES if e.source is Source.JOB] + ["slide"])
@pytest.mark.parametrize("name", ["gloo", "four", "forty"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_job_chart_draws_every_job_whole(qtbot, profiles, key, name, size):
    """A job's charts (and the slide, which shows two of them for a job) on a real two-rank job, the hand-worked four ranks
    and forty: labels and legends whole, none on a line, axis titles whole."""
    inputs = job_inputs(profiles, name)
    widget = export.chart_widget(make_chart, key, inputs, size)
    try:
        assert _labels_fit(widget) == []
        assert _legends_cut(widget) == []
        assert legend_problems(widget) == []
        assert labels_on_lines(widget) == []
        assert axis_titles_cut(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_llm_examples_default_slide_lays_no_label_on_a_line(qtbot, size):
    """The bundled LLM example as it opens (an arrival rate: the slide's second chart is latency against load). At
    half a slide no place beside the walls, the after point or the target is clear of the curves: their figures are
    in the title and the legend, and those labels are left out rather than laid on a curve."""
    inputs = inputs_for(load_profile(example_path("llm-request.xlsx")).profile)
    widget = export.chart_widget(make_chart, "slide", inputs, size)
    try:
        assert widget.shown == ("breakdown", "load")
        assert _legends_cut(widget) == [] and legend_problems(widget) == []
        assert labels_on_lines(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


HALF_SLIDE = ("breakdown", "speedup", "scaling", "distribution", "tornado", "load", "cost")


@pytest.mark.parametrize("key", HALF_SLIDE)
@pytest.mark.parametrize("which", ["llm-ranges", "long-names", "extreme", "serial", "stages"])
def test_every_chart_at_half_a_slide_lays_no_label_on_a_line(qtbot, profiles, key, which):
    """Any chart a person picks for the slide (Export dialog, --slide-charts), beside another at 1280×720: a plot
    half as wide and two thirds as high as the chart alone. Each legend whole, no label on a line or a label, the
    axes' labels readable."""
    profile = profiles[which]
    if key == "load" and profile.settings.arrival_rate is None:
        profile = profile.copy()
        profile.set_settings(replace(profile.settings, arrival_rate=14.0, servers=24))
    inputs = replace(inputs_for(profile), slide_charts=(key, "speedup" if key == "breakdown" else "breakdown"))
    widget = export.chart_widget(make_chart, "slide", inputs, (1280, 720))
    try:
        assert key in widget.shown
        assert _legends_cut(widget) == [] and legend_problems(widget) == []
        assert labels_on_lines(widget) == []
        assert axis_titles_cut(widget) == [] and ticks_unreadable(widget) == []
    finally:
        widget.close()
        widget.deleteLater()
