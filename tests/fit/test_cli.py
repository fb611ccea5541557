"""``amdahl-desk fit``: the JSON contract, the review answer, and exit codes 0/2."""

import json
from pathlib import Path

from amdahl_desk.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def run(capsys, *args):
    status = main(["fit", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_contract(capsys):
    status, out, _ = run(capsys, FIXTURES / "specsdm91.csv", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["kind"] == "throughput" and data["baseline_n"] == 1
    assert set(data["points"][0]) >= {"n", "value", "speedup", "efficiency", "karp_flatt"}
    assert data["points"][0]["karp_flatt"] is None and data["points"][1]["karp_flatt"] is not None
    assert set(data["amdahl"]) >= {"parallel_fraction", "stderr", "ceiling"}
    usl = data["usl"]
    keys = {
        "alpha",
        "beta",
        "gamma",
        "alpha_stderr",
        "beta_stderr",
        "gamma_stderr",
        "r_squared",
        "peak_n",
        "peak_x",
        "limit_x",
    }
    assert set(usl) >= keys
    assert round(usl["alpha"], 7) == 0.0277285 and round(usl["peak_n"], 1) == 96.5


def test_json_nulls_for_no_peak_and_infinite_limit(tmp_path, capsys):
    path = tmp_path / "linear.csv"
    path.write_text("Workers,Throughput\n1,10\n2,20\n4,40\n8,80\n16,160\n32,320\n", encoding="utf-8")
    status, out, _ = run(capsys, path, "--json")
    usl = json.loads(out)["usl"]
    assert status == 0 and usl["beta"] == 0 and usl["peak_n"] is None and usl["limit_x"] is None


def test_text_reads_like_a_review_answer(capsys):
    status, out, _ = run(capsys, FIXTURES / "training-gpus.csv")
    assert status == 0
    assert "7 measured runtimes (s) from training-gpus.csv" in out
    assert "Amdahl fit: P =" in out and "USL α" in out


def test_text_gives_every_figure_its_unit(capsys):
    """Throughputs of runtimes in runs per second, as the window says them (γ = 1/T at N = 1)."""
    status, out, _ = run(capsys, FIXTURES / "training-gpus.csv")
    assert status == 0
    rows = {line.split("  ")[0].strip(): line for line in out.splitlines() if "  " in line}
    assert rows["USL γ"].split("±")[1].split()[1] == "runs/s"
    assert "runs/s" in rows["limit γ/α"] and "X(N*) = " in rows["peak N*"] and "runs/s" in rows["peak N*"]
    gamma = float(rows["USL γ"].split()[2])
    assert 0.95 < gamma < 1.05  # 1 run at N = 1 takes 1 s: about one run a second


def test_bad_file_exits_2_naming_the_row(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("N,Time\n1,10\n2,-1\n", encoding="utf-8")
    status, _, err = run(capsys, path)
    assert status == 2 and "bad.csv: row 3, column 2" in err


def test_too_few_points_prints_the_points_and_exits_2(tmp_path, capsys):
    path = tmp_path / "two.csv"
    path.write_text("N,Time\n1,10\n2,6\n", encoding="utf-8")
    status, out, err = run(capsys, path, "--json")
    assert status == 2
    data = json.loads(out)
    assert len(data["points"]) == 2 and data["usl"] is None and data["amdahl"] is None
    assert "two.csv: rows 2–3: only 2 runs" in err


def test_missing_file_exits_2(tmp_path, capsys):
    status, _, err = run(capsys, tmp_path / "nope.csv")
    assert status == 2 and "no such file" in err


def test_profile_comparison(capsys):
    profile = Path(__file__).parents[2] / "resources" / "examples"
    examples = sorted(profile.glob("*.xlsx"))
    status, out, _ = run(capsys, FIXTURES / "training-gpus.csv", "--profile", examples[0])
    assert status == 0 and "The profile says" in out


def test_profile_comparison_at_the_runs_baseline(capsys):
    from amdahl_desk.resources import example_path

    # training-iteration: 750 of 1,000 ms parallel on N0 = 8 GPUs; the runs start at 1 GPU, where the
    # parallel part takes 8 × 750 = 6,000 ms of 6,250: 96%
    status, out, _ = run(capsys, FIXTURES / "training-gpus.csv", "--profile", example_path("training-iteration.xlsx"))
    assert status == 0 and "The profile says 96% parallel" in out
