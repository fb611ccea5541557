"""report with estimates: the uncertainty and plans objects, their words, the seed and the confidence level."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.resources import example_path

from .test_report_json import all_keys


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def estimated(tmp_path) -> Path:
    """The training example with "Reduced precision" at 3–6× (likely 4×) for 5 days, and Kernel fusion for 2."""
    profile = load_profile(example_path("training-iteration.xlsx")).profile
    opts = list(profile.optimizations)
    opts[0] = replace(opts[0], speedup_low=3.0, speedup_high=6.0, effort=5.0)
    opts[2] = replace(opts[2], effort=2.0, confidence=0.8)
    profile.set_optimizations(opts)
    path = tmp_path / "estimated.xlsx"
    save_profile(profile, path)
    return path


def test_the_issue_sentence_on_the_training_example(capsys, estimated):
    code, out, _ = run(capsys, "report", estimated, "--target", "550")
    assert code == 0
    assert (
        "Under uncertainty: Reduced precision and tensor-core kernels (3–6×, likely 4×) makes the whole workload "
        "1.67–2.00× faster, 1.83× at the median; it meets 550 ms with 58% probability." in out
    )
    assert "Cheapest plan: Reduced precision and tensor-core kernels + Kernel fusion reach 550 ms with" in out


def test_the_json_keys_of_the_contract(capsys, estimated):
    code, out, _ = run(capsys, "report", estimated, "--json", "--target", "550")
    assert code == 0
    data = json.loads(out)
    first, plain = data["optimizations"][0], data["optimizations"][1]
    assert (first["speedup_low"], first["speedup"], first["speedup_high"], first["effort"], first["confidence"]) == (
        3.0,
        4.0,
        6.0,
        5.0,
        1.0,
    )
    assert (plain["speedup_low"], plain["speedup_high"], plain["effort"], plain["confidence"]) == (2.0, 2.0, None, 1.0)
    u = data["uncertainty"]
    assert (u["draws"], u["seed"], u["distribution"]) == (10_000, 0, "pert")
    assert set(u["overall_speedup"]) == set(u["new_total"]) == {"low", "high", "p5", "p50", "p95", "mean"}
    assert (u["overall_speedup"]["low"], u["overall_speedup"]["high"]) == pytest.approx((1000 / 600, 2.0))
    assert (u["new_total"]["low"], u["new_total"]["high"]) == pytest.approx((500.0, 600.0))
    assert u["probability_target"] == pytest.approx(0.583, abs=0.01)
    (s,) = u["sensitivity"]
    assert set(s) == {"name", "speedup_at_low", "speedup_at_high", "swing"}
    plans = data["plans"]
    assert plans["confidence"] == 0.8
    assert set(plans["cheapest"]) == {"optimizations", "effort", "probability_target", "new_total_p50"}
    assert plans["cheapest"]["optimizations"] == ["Reduced precision and tensor-core kernels", "Kernel fusion"]
    assert plans["cheapest"]["effort"] == 7.0


def test_every_key_is_documented(capsys, estimated):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "json-contract.md").read_text(encoding="utf-8")
    documented = {line.split("`")[1] for line in doc.splitlines() if line.startswith("| `")}
    code, out, _ = run(capsys, "report", estimated, "--json", "--target", "550")
    leaves = {key.rsplit(".", 1)[-1] for key in all_keys(json.loads(out))}
    assert leaves <= documented, leaves - documented


def test_the_objects_appear_only_when_they_apply(capsys, tmp_path, estimated):
    plain = json.loads(run(capsys, "report", example_path("training-iteration.xlsx"), "--json")[1])
    assert "uncertainty" not in plain and "plans" not in plain  # no range, no odds, no effort
    no_target = json.loads(run(capsys, "report", estimated, "--json")[1])
    # The example's own target (600 ms) is on its Settings sheet: plans too.
    assert "uncertainty" in no_target and no_target["plans"]["cheapest"] is not None
    profile = load_profile(example_path("training-iteration.xlsx")).profile
    opts = list(profile.optimizations)
    opts[1] = replace(opts[1], effort=1.0)
    profile.set_optimizations(opts)
    path = tmp_path / "effort-only.xlsx"
    save_profile(profile, path)
    effort_only = json.loads(run(capsys, "report", path, "--json")[1])
    assert "uncertainty" not in effort_only and "plans" in effort_only


def test_the_same_seed_gives_the_same_numbers(capsys, estimated):
    first = run(capsys, "report", estimated, "--json", "--seed", "7")[1]
    again = run(capsys, "report", estimated, "--json", "--seed", "7")[1]
    other = run(capsys, "report", estimated, "--json", "--seed", "8")[1]
    assert first == again
    assert json.loads(first)["uncertainty"]["seed"] == 7
    assert json.loads(first)["uncertainty"]["new_total"] != json.loads(other)["uncertainty"]["new_total"]


def test_the_confidence_level_on_the_command_line(capsys, estimated):
    # Both together meet 550 ms when fusion works (80%), else when k ≥ 4 (58%): 0.8 + 0.2 · 0.58 ≈ 92%.
    data = json.loads(run(capsys, "report", estimated, "--json", "--target", "550", "--confidence", "90%")[1])
    assert data["plans"]["confidence"] == 0.9
    assert data["plans"]["cheapest"]["probability_target"] == pytest.approx(0.8 + 0.2 * 0.583, abs=0.01)
    data = json.loads(run(capsys, "report", estimated, "--json", "--target", "550", "--confidence", "0.99")[1])
    assert data["plans"]["cheapest"] is None and data["plans"]["probability_all"] < 0.99
    for bad in ("99", "0", "lots"):
        code, out, err = run(capsys, "report", estimated, "--confidence", bad)
        assert code == 2 and out == "" and "--confidence" in err


def test_a_plan_that_can_never_reach_the_target_says_so(capsys, estimated):
    code, out, _ = run(capsys, "report", estimated, "--target", "390")
    assert code == 0
    assert "it can never meet 390 ms, whatever the speedups" in out


def test_a_bad_estimate_cell_exits_2_naming_it(capsys, tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    ws.append(["Component", "Time"])
    ws.append(["a", 10])
    opt = book.create_sheet("Optimizations")
    opt.append(["Optimization", "Targets", "k", "k low"])
    opt.append(["x", "a", 2, 3])
    path = tmp_path / "bad.xlsx"
    book.save(path)
    code, out, err = run(capsys, "report", path)
    assert code == 2 and out == ""
    assert "Optimizations!D2" in err and "above its likely k" in err
