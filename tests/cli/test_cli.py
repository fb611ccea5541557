"""The headless command: report (text and JSON), scale, and exit statuses."""

import json
import subprocess
import sys

import pytest

from amdahl_desk.cli import main
from amdahl_desk.resources import example_path


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_report_json_training_example(capsys):
    code, out, _ = run(capsys, "report", str(example_path("training-iteration.xlsx")), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["unit"] == "ms" and data["baseline_total"] == 1000
    assert [c["fraction"] for c in data["components"]] == pytest.approx([0.1, 0.6, 0.15, 0.1, 0.05])
    assert set(data["components"][0]) >= {"name", "time", "fraction", "new_time", "scaling"}
    matmul = data["optimizations"][0]
    assert set(matmul) >= {
        "name",
        "enabled",
        "targets",
        "speedup",
        "fraction",
        "overall_speedup",
        "new_total",
        "time_saved",
        "ceiling",
    }
    assert matmul["overall_speedup"] == pytest.approx(1.82, rel=5e-3)
    assert matmul["new_total"] == pytest.approx(550) and matmul["ceiling"] == pytest.approx(2.5)
    assert data["combined"]["new_total"] == pytest.approx(550)
    assert data["combined"]["time_saved"] == pytest.approx(450)
    assert data["target"] == {
        "time": 600,
        "required_speedup": pytest.approx(3),
        "feasible": True,
        "floor": pytest.approx(400),
        "met_by_plan": True,
    }
    pts = data["scaling"]["points"]
    assert set(pts[0]) >= {"gpus", "amdahl", "with_overhead", "gustafson", "efficiency"}
    # disabled optimizations still carry their own figures
    assert data["optimizations"][1]["enabled"] is False and data["optimizations"][1]["overall_speedup"] > 1


def test_report_json_llm_example_and_infeasible_target(capsys):
    code, out, _ = run(capsys, "report", str(example_path("llm-request.xlsx")), "--json")
    data = json.loads(out)
    decode = data["optimizations"][0]
    assert decode["overall_speedup"] == pytest.approx(1.43, rel=5e-3)
    assert decode["new_total"] == pytest.approx(1050) and decode["ceiling"] == pytest.approx(2.5)
    assert data["target"]["feasible"] is False and data["target"]["required_speedup"] is None
    assert data["target"]["floor"] == pytest.approx(600)


def test_target_option_with_unit_and_infinite_ceiling_is_null(capsys, tmp_path):
    (tmp_path / "p.csv").write_text("Component,Time (s)\nall,1.5\n")
    code, out, _ = run(capsys, "report", str(tmp_path / "p.csv"), "--json", "--target", "900 ms")
    data = json.loads(out)
    assert data["unit"] == "s" and data["target"]["time"] == pytest.approx(0.9)
    assert data["target"]["feasible"] is False
    code, out, _ = run(capsys, "report", str(example_path()), "--target", "700")
    assert code == 0 and "Target 700 ms: reachable" in out


def test_text_report_reads_like_a_review_answer(capsys):
    code, out, _ = run(capsys, "report", str(example_path()))
    assert code == 0
    for phrase in (
        "Boundary: Stable training iteration",
        "60%",
        "1.82×",
        "550 ms",
        "ceiling 2.5×",
        "400 ms",
        "measure again",
    ):
        assert phrase in out


def test_scale_json(capsys):
    code, out, _ = run(capsys, "scale", "--parallel-fraction", "0.95", "--gpus", "1,5,10,100", "--json")
    data = json.loads(out)
    assert code == 0 and data["parallel_fraction"] == 0.95 and data["ceiling"] == pytest.approx(20)
    assert [p["amdahl"] for p in data["points"]] == pytest.approx([1, 4.17, 6.90, 16.81], rel=5e-3)
    assert set(data["points"][0]) >= {"gpus", "amdahl", "with_overhead", "gustafson", "efficiency"}
    code, out, _ = run(capsys, "scale", "-p", "100%", "--json")
    assert json.loads(out)["ceiling"] is None


@pytest.mark.parametrize(
    "args",
    [
        ("scale", "-p", "1.5"),
        ("scale", "-p", "x"),
        ("scale", "-p", "0.5", "--gpus", "0,2"),
        ("report", "missing.xlsx"),
        ("report", "--target", "soon", "{example}"),
        ("bogus-arg", "--nope"),
    ],
)
def test_bad_input_exits_2_without_traceback(capsys, args):
    args = [a.replace("{example}", str(example_path())) for a in args]
    code, _, err = run(capsys, *args)
    assert code == 2
    assert "Traceback" not in err and err.strip()


def test_bad_workbook_message_on_stderr(capsys, tmp_path):
    (tmp_path / "bad.csv").write_text("Component,Time\na,fast\n")
    code, out, err = run(capsys, "report", str(tmp_path / "bad.csv"))
    assert code == 2 and out == ""
    assert err.strip() == 'bad.csv: row 2, column 2: "fast" is not a time; expected a number or a value like "120 ms"'


def test_python_dash_m_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "amdahl_desk", "scale", "-p", "0.9", "--gpus", "128"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "9.34×" in proc.stdout


@pytest.mark.gui  # imports the charts' exporter
def test_export_chart_keys_match_the_chart_registry():
    from amdahl_desk.cli.export import CHART_KEYS
    from amdahl_desk.ui.charts.export import CHARTS

    assert tuple(CHART_KEYS) == tuple(CHARTS)


def test_a_subcommand_imports_no_other_subcommand():
    import subprocess
    import sys

    code = (
        "import sys, io, contextlib\n"
        "from amdahl_desk.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['scale', '-p', '0.9', '--gpus', '1,2'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('amdahl_desk.cli.') or m == 'amdahl_desk.files.traces'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "['amdahl_desk.cli.common', 'amdahl_desk.cli.scale']"


@pytest.mark.gui
def test_export_all_leaves_out_the_load_chart_without_an_arrival_rate(tmp_path, capsys):
    from amdahl_desk.resources import example_path

    assert main(["export", str(example_path()), "--out", str(tmp_path), "--format", "svg"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "training-iteration-load.svg" not in names and "training-iteration-cost.svg" in names


@pytest.mark.gui
def test_a_traces_charts_that_draw_nothing_are_left_out_or_refused(tmp_path, capsys):
    """A trace imported as is has no optimization: the speedup against k and what matters most draw nothing. "all"
    leaves them out; named, each is refused with what it needs, and no file is written."""
    from tests.traces import expect

    trace = str(expect.ONE_GPU)
    assert main(["export", trace, "--out", str(tmp_path / "all"), "--format", "svg"]) == 0
    names = {p.name.split("-")[-1] for p in (tmp_path / "all").iterdir()}
    assert {"breakdown.svg", "critical_path.svg", "distribution.svg"} <= names  # the steps' spread: odds to draw
    assert not names & {"speedup.svg", "tornado.svg"}
    capsys.readouterr()
    for chart, needs in (("speedup", "add an optimization"), ("tornado", "tick an optimization")):
        assert main(["export", trace, "--out", str(tmp_path / chart), "--chart", chart]) == 2
        assert f"--chart {chart} has nothing to draw: {needs}" in capsys.readouterr().err
        assert not list((tmp_path / chart).glob("*.png"))
    # nor as one of the slide's two charts, chosen
    assert (
        main(["export", trace, "--out", str(tmp_path / "s"), "--chart", "slide", "--slide-charts", "breakdown,speedup"])
        == 2
    )
    said = capsys.readouterr().err
    assert "--slide-charts: the slide's chart “Speedup against k” has nothing to draw: add an optimization" in said
    assert not list((tmp_path / "s").glob("*.png"))


@pytest.mark.parametrize("command", ["report", "export"])
def test_help_says_a_trace_and_a_jobs_folder_are_profiles_too(capsys, command):
    """report and export take a profiler trace and a folder of rank traces as the window opens them; their help
    said "profile workbook (.xlsx) or components table (.csv)" only."""
    main([command, "--help"])  # (main turns argparse's exit into a return code)
    said = " ".join(capsys.readouterr().out.split())
    assert "profiler trace" in said and "folder of rank traces" in said
