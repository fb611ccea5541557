"""``amdahl-desk import``: the JSON contract, text output, and --out writing a profile every command reads."""

from __future__ import annotations

import json

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile

from . import expect

CPU = expect.FIXTURES / "torch_cpu_steps.json.gz"
GLOO = expect.FIXTURES / "gloo"
PYSPY = expect.FIXTURES / "pyspy.speedscope.json"
NCCL16 = expect.REAL / "kineto_16gpu_nccl_rank0.json.gz"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract_cpu_trace(capsys):
    code, out, _ = run(capsys, "import", CPU, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"format", "unit", "steps", "step_time", "components"}
    assert data["format"] == "pytorch" and data["unit"] == "ms" and data["steps"] == 5
    assert data["step_time"] == pytest.approx(expect.mean_step_ms(expect.load(CPU)), rel=1e-9)
    assert all(set(c) >= {"name", "time", "scaling", "group"} for c in data["components"])
    assert "gpu" not in data  # no GPU events


def test_json_contract_gpu_trace(capsys):
    code, out, _ = run(capsys, "import", NCCL16, "--group-by", "gpu", "--total", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data["gpu"]) == {
        "device",
        "compute",
        "exposed_communication",
        "overlapped_communication",
        "memory",
        "idle",
        "span",
    }
    want = expect.gpu_total_ms(expect.load(NCCL16))
    assert data["gpu"]["compute"] == pytest.approx(want["compute"], rel=1e-6)
    assert data["steps"] == 5  # --total imports the whole trace; the steps are still reported


def test_json_speedscope_has_no_steps(capsys):
    code, out, _ = run(capsys, "import", PYSPY, "--json", "--top", "2")
    data = json.loads(out)
    assert code == 0 and data["format"] == "speedscope" and data["steps"] is None and data["step_time"] is None
    assert len(data["components"]) <= 4


def test_ranks_in_text_and_json(capsys):
    code, out, _ = run(capsys, "import", GLOO)
    assert code == 0 and "← slowest" in out and "rank 0 (rank0.json.gz)" in out
    code, out, _ = run(capsys, "import", GLOO / "rank0.json.gz", GLOO / "rank1.json.gz", "--rank", "1", "--json")
    data = json.loads(out)
    assert data["rank"] == 1 and [r["rank"] for r in data["ranks"]] == [0, 1]
    assert sum(r["slowest"] for r in data["ranks"]) == 1


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_out_writes_a_profile_that_loads(tmp_path, capsys, suffix):
    out = tmp_path / f"imported{suffix}"
    code, _, err = run(capsys, "import", CPU, "--out", out)
    assert code == 0 and out.exists() and "wrote" in err
    profile = load_profile(out).profile
    names = [c.name for c in profile.components]
    assert "data_loading" in names and "Unattributed" in names
    assert profile.total == pytest.approx(expect.mean_step_ms(expect.load(CPU)), rel=1e-6)
    data_loading = next(c for c in profile.components if c.name == "data_loading")
    assert data_loading.scaling.value == "serial" and "torch_cpu_steps.json.gz" in data_loading.notes
    if suffix == ".xlsx":
        assert "PyTorch trace torch_cpu_steps.json.gz" in profile.settings.boundary
    code, out_text, _ = run(capsys, "report", out)
    assert code == 0 and "data_loading" in out_text


def test_warnings_go_to_stderr(capsys):
    code, out, err = run(capsys, "import", CPU, "--json")
    assert code == 0 and "ProfilerStep#3" in err and "warning" in err
    json.loads(out)


def test_out_into_a_folder_that_is_not_there_is_refused_naming_it(tmp_path, capsys):
    target = tmp_path / "not" / "there" / "p.xlsx"
    assert main(["import", str(expect.FIXTURES / "torch_cpu_steps.json.gz"), "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"--out: cannot write {target}: No such file or directory" in err and "Traceback" not in err
    assert not target.parent.exists()
