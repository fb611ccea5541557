"""A multi-rank trace was measured on its world size of GPUs: the import makes that the profile's N0, and says so."""

from __future__ import annotations

import gzip
import json

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.analysis import analyse
from amdahl_desk.present.analysis_warnings import warning_texts

from . import expect

GLOO = expect.FIXTURES / "gloo"


def _world_size(path) -> int:
    return expect.load(path)["distributedInfo"]["world_size"]


def test_the_16_gpu_trace_sets_n0_from_its_world_size():
    world = _world_size(expect.NCCL16)
    assert world == 16
    result = import_trace(expect.NCCL16)
    profile = result.to_profile()
    assert result.baseline_gpus == world and profile.settings.baseline_gpus == world
    assert "N0 = 16 GPUs (the trace's distributedInfo.world_size)" in profile.settings.boundary
    scaling = analyse(profile).scaling
    # speedups are against the 16 GPUs measured: 1× at 16, and the curves reach past 16
    at16 = list(scaling.gpus).index(16)
    assert scaling.ideal[at16] == 1 and scaling.amdahl[at16] == pytest.approx(1)
    assert scaling.ideal[-1] == max(scaling.gpus) / 16 and max(scaling.gpus) >= 1024


def test_a_one_gpu_trace_keeps_n0_at_1():
    assert _world_size(expect.ONE_GPU) == 1
    result = import_trace(expect.ONE_GPU)
    assert result.baseline_gpus == 1 and result.to_profile().settings.baseline_gpus == 1
    assert "N0" not in result.boundary


def test_a_folder_of_ranks_takes_the_world_size_of_the_traces():
    result = import_trace(GLOO)
    assert result.baseline_gpus == _world_size(GLOO / "rank0.json.gz") == 2
    assert result.to_profile().settings.baseline_gpus == 2


def test_rank_files_without_a_world_size_count_the_files(tmp_path):
    for rank in (0, 1, 2):
        data = expect.load(GLOO / "rank0.json.gz")
        data.pop("distributedInfo")
        (tmp_path / f"rank{rank}.json").write_text(json.dumps(data))
    result = import_trace(tmp_path)
    # gloo's traces hold no GPU events: its ranks are counted as ranks
    assert result.baseline_gpus == 3
    assert "N0 = 3 ranks (the number of rank files; the trace holds no GPU events)" in result.boundary


def test_a_huge_world_size_evaluates_gpu_counts_past_it(tmp_path):
    data = json.loads(gzip.decompress((GLOO / "rank0.json.gz").read_bytes()))
    data["distributedInfo"]["world_size"] = 4096
    path = tmp_path / "big_world.json"
    path.write_text(json.dumps(data))
    profile = import_trace(path).to_profile()
    assert profile.settings.baseline_gpus == 4096 and max(profile.settings.gpu_counts) > 4096
    assert not any("N0" in w for w in warning_texts(analyse(profile).warnings, profile.unit))


def test_the_command_line_writes_n0_and_reports_against_it(tmp_path, capsys):
    out = tmp_path / "imported.xlsx"
    assert main(["import", str(expect.NCCL16), "--out", str(out)]) == 0
    assert load_profile(out).profile.settings.baseline_gpus == 16
    capsys.readouterr()
    assert main(["import", str(expect.NCCL16), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["baseline_gpus"] == 16
    assert main(["report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "(against the N0 = 16 GPUs measured)" in report and "N0 = 16 GPUs" in report
