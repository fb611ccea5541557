"""``amdahl-desk whatif`` refuses what it cannot answer: exit 2, a message that names what is wrong, no traceback."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from amdahl_desk.cli import main

from . import expect, synthetic


def refused(capsys, *args: str) -> str:
    assert main(["whatif", *args]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.fixture
def good(tmp_path):
    return synthetic.gpu_bound().write(tmp_path / "good.json")


@pytest.mark.parametrize(
    ("speedup", "says"),
    [
        ("gemm=0", "greater than 0"),
        ("gemm=-2", "greater than 0"),
        ("gemm=fast", "not a number"),
        ("gemm=inf", "not a number"),  # read as every speedup is (model/units.speedup_number)
        ("gemm=1,500", "could be 1500 (comma grouping thousands) or 1.5"),  # ambiguous: said why
        ("gemm", "PATTERN=K"),
        ("=2", "empty"),
        ("re:=2", "empty"),
        ("re:(=2", "regular expression"),
        ("nothing_like_it=2", "matches no kernel"),
    ],
)
def test_bad_speedups(capsys, good, speedup, says):
    assert says in refused(capsys, str(good), "--speedup", speedup)


def test_a_k_with_a_point_before_three_digits_is_a_decimal_point(good):
    """A K measured to three decimals (2.052: the ratio of two traces' own times) is 2.052, not refused as maybe
    2052: on the command line a point is the decimal point."""
    from amdahl_desk.model.traces.patterns import parse_pattern_speedup

    assert parse_pattern_speedup("gemm=2.052").k == 2.052
    assert parse_pattern_speedup("gemm=1.500").k == 1.5


def test_no_steps_names_the_file_and_the_option(capsys, good):
    err = refused(capsys, str(good), "--speedup", "gemm=2", "--step", "Iteration#")
    assert "good.json" in err and "no steps" in err and "--step" in err


def test_damaged_traces_name_the_place(capsys, tmp_path, good):
    text = good.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    assert "truncated" in refused(capsys, str(cut), "--speedup", "gemm=2")
    broken = tmp_path / "broken.json"
    broken.write_text(text.replace('"dur": 200', '"dur": 2x0', 1))
    err = refused(capsys, str(broken), "--speedup", "gemm=2")
    assert "broken.json" in err and "event" in err and "byte" in err
    bad_gz = tmp_path / "bad.json.gz"
    bad_gz.write_bytes(gzip.compress(text.encode())[:-20])
    assert "gzip" in refused(capsys, str(bad_gz), "--speedup", "gemm=2")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert "empty" in refused(capsys, str(empty), "--speedup", "gemm=2")
    no_ts = tmp_path / "no_ts.json"
    doc = json.loads(text)
    del doc["traceEvents"][1]["ts"]
    no_ts.write_text(json.dumps(doc))
    assert "event 2" in refused(capsys, str(no_ts), "--speedup", "gemm=2")
    assert "no such file" in refused(capsys, str(tmp_path / "missing.json"), "--speedup", "gemm=2")


def test_a_summary_is_not_a_trace(capsys):
    err = refused(capsys, str(expect.FIXTURES / "pyspy.speedscope.json"), "--speedup", "a=2")
    assert "PyTorch" in err


def test_ranks_in_a_folder(capsys, tmp_path):
    folder = tmp_path / "ranks"
    folder.mkdir()
    for rank, make in ((0, synthetic.gpu_bound), (1, synthetic.mid_step_sync)):
        t = make()
        path = t.write(folder / f"rank{rank}.json")
        doc = json.loads(path.read_text())
        doc["distributedInfo"] = {"rank": rank, "world_size": 2}
        path.write_text(json.dumps(doc))
    err = refused(capsys, str(folder), "--speedup", "gemm=2", "--rank", "5")
    assert "rank 5" in err and "0, 1" in err
    assert main(["whatif", str(folder), "--speedup", "gemm=2", "--rank", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["rank"], d["source"], round(d["baseline"] * 1000)) == (1, "rank1.json", 725)
    # without --rank, a folder is a job: its step is the slowest rank's (830 µs); with gemm 2× rank 0's step
    # is 430 and rank 1's 475 (see synthetic.py), so the job's is 475
    assert main(["whatif", str(folder), "--speedup", "gemm=2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["ranks"], round(d["baseline"] * 1000), round(d["predicted"] * 1000)) == (2, 830, 475)
    assert [round(r["predicted"] * 1000) for r in d["per_rank"]] == [430, 475]


def test_a_single_trace_of_another_rank(capsys, tmp_path):
    path = tmp_path / expect.NCCL16.name
    shutil.copy(expect.NCCL16, path)
    assert "rank 3 is not in this trace" in refused(capsys, str(path), "--speedup", "nccl=2", "--rank", "3")


def test_the_text_reads_like_a_review_answer(capsys, good):
    assert main(["whatif", str(good), "--speedup", "gemm=2"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("Making `gemm` kernels 2× faster shortens the step 1.930× (0.83 ms → 0.43 ms)")
    assert "Even free, they give at most" in first
    assert "critical path before: 0.83 ms = CPU" in out


def test_the_model_refuses_with_fields_and_the_command_line_names_the_flag():
    from amdahl_desk.cli.common import refusal_text
    from amdahl_desk.model.errors import Asked, InputError
    from amdahl_desk.model.job.analysis import parse_ranks
    from amdahl_desk.model.traces.patterns import parse_pattern_speedup

    with pytest.raises(InputError) as caught:
        parse_pattern_speedup("gemm=x")
    assert (caught.value.asked, caught.value.given) == (Asked.SPEEDUP, "gemm=x")
    assert "--" not in str(caught.value)  # the model names no flag
    assert refusal_text(caught.value) == '--speedup "gemm=x": K is "x", not a number; expected a speedup like 2'
    with pytest.raises(InputError) as ranks:
        parse_ranks("3-1")
    assert ranks.value.asked is Asked.ON_RANKS
    assert refusal_text(ranks.value) == '--on-ranks "3-1": expected rank numbers and ranges, like 3 or 0-3,7'


def test_a_pattern_that_names_an_annotation_says_how_to_name_the_phase(capsys, tmp_path):
    """Patterns match kernels, operators and calls, never annotations: a pattern that matches only a user
    annotation is refused with the matcher that names that phase, as the window's component does."""
    from amdahl_desk.model.errors import InputError
    from amdahl_desk.model.traces.patterns import Speedup, refuse_unmatched

    with pytest.raises(InputError) as caught:
        refuse_unmatched(Speedup("slow", 2.0), "slow=2", 5, "", ["ProfilerStep#1", "slow_part"])
    assert caught.value.why.endswith(
        'it matches the annotation "slow_part": annotation:slow_part=K scales that phase (its time on every thread '
        "and the GPU work launched in it), as the window's component does"
    )
    with pytest.raises(InputError) as caught:
        refuse_unmatched(Speedup("annotation:slow_part", 2.0), "annotation:slow_part", 5, "on ranks 0", [])
    assert caught.value.why == 'no annotation named "slow_part" runs on ranks 0 in the 5 steps'
    # an annotation that runs, but only inside another: a matcher names outermost ones (phases); gpu:idle is none
    with pytest.raises(InputError) as caught:
        refuse_unmatched(Speedup("annotation:DDP.forward", 2.0), "annotation:DDP.forward=2", 5, "", ["DDP.forward"])
    assert caught.value.why.startswith('the annotation "DDP.forward" runs only inside another one')
    err = refused(capsys, str(expect.ONE_GPU), "--speedup", "gpu:idle=2")
    assert '"gpu:idle" is no matcher whatif scales (gpu:compute, gpu:communication, gpu:memory)' in err
    err = refused(capsys, str(expect.ONE_GPU), "--speedup", "backward ##=2")
    assert 'it matches the annotation "## backward ##": annotation:## backward ##=K' in err
