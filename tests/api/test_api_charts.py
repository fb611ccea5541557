"""A chart from the Python API is the chart ``amdahl-desk export`` draws: the same bytes for the same inputs."""

from pathlib import Path

import pytest

import amdahl_desk as ad
from amdahl_desk.cli import main

pytestmark = pytest.mark.gui

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "training-iteration.xlsx"
TRACE = ROOT / "tests" / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"


def exported(tmp_path, profile, chart, fmt, size="1280x720"):
    out = tmp_path / "export"
    assert main(["export", str(profile), "--out", str(out), "--chart", chart, "--format", fmt, "--size", size]) == 0
    return (out / f"{Path(profile).name.split('.')[0]}-{chart}.{fmt}").read_bytes()


@pytest.mark.parametrize("chart", ["speedup", "breakdown", "scaling", "slide"])
def test_a_chart_is_the_exported_chart(tmp_path, capsys, chart):
    c = ad.load(EXAMPLE).analyse().chart(chart)
    png = c._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png == exported(tmp_path, EXAMPLE, chart, "png")
    svg = c._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_save_writes_by_the_suffix(tmp_path):
    c = ad.load(EXAMPLE).analyse().chart("breakdown", size=(800, 450))
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        path = c.save(tmp_path / f"breakdown{suffix}")
        assert path.read_bytes().startswith(magic)
    with pytest.raises(ad.BadInputError, match="not a chart format"):
        c.save(tmp_path / "breakdown.gif")


def test_the_critical_path_of_a_trace_profile(tmp_path, capsys):
    trace = tmp_path / TRACE.name
    trace.write_bytes(TRACE.read_bytes())
    p = ad.load(trace)
    saved = p.save(tmp_path / "from-trace.xlsx")  # the workbook names its trace, as the window saves it
    png = p.analyse().chart("critical_path").render("png")
    assert png == exported(tmp_path, saved, "critical_path", "png")
    assert png == ad.load(saved).analyse().chart("critical_path").render("png")


def test_an_unknown_chart_is_refused_by_name():
    with pytest.raises(ad.BadInputError, match='"pie" is not a chart'):
        ad.load(EXAMPLE).analyse().chart("pie")
