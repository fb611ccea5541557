"""The Python API answers what the command line answers: the same functions, the same JSON, the same refusals."""

import json
from pathlib import Path

import pytest

import amdahl_desk as ad
from amdahl_desk.cli import main

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "resources" / "examples"
TRACES = ROOT / "tests" / "fixtures" / "real_traces"
ONE_GPU = TRACES / "kineto_1gpu_ns_timestamps.json.gz"
SIXTEEN_GPU = TRACES / "kineto_16gpu_nccl_rank0.json.gz"
RUNS = ROOT / "tests" / "fit" / "fixtures" / "training-gpus.csv"


def cli_json(capsys, *args):
    """What ``amdahl-desk ARGS`` prints, read as JSON (run in this process, as the command's tests do)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code in (0, 2), err
    return json.loads(out)


def cli_error(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == 2, out
    return err.strip().removeprefix("amdahl-desk: ")


@pytest.mark.parametrize("name", ["training-iteration.xlsx", "llm-request.xlsx", "llm-request-after.xlsx"])
def test_analyse_to_dict_is_report_json(capsys, name):
    path = EXAMPLES / name
    assert ad.load(path).analyse().to_dict() == cli_json(capsys, "report", path, "--json")


def test_with_target_confidence_and_seed_as_report_flags(capsys, tmp_path):
    p = ad.load(EXAMPLES / "training-iteration.xlsx")
    p = p.with_optimization("Kernel fusion", ["Other GPU kernels"], 2, k_low=1.2, k_high=3, effort=5, confidence=0.8)
    p = p.with_optimization("Faster input pipeline", "Input pipeline and host preparation", 2, effort=2)
    saved = p.save(tmp_path / "ranged.xlsx")
    a = p.analyse("700 ms", confidence="90%", seed=7)
    expected = cli_json(capsys, "report", saved, "--json", "--target", "700 ms", "--confidence", "90%", "--seed", 7)
    assert "uncertainty" in expected and "plans" in expected  # the ranges and efforts reached the command
    assert a.to_dict() == expected
    d = p.decide(target="700 ms", confidence="90%", seed=7)
    assert d.probability == expected["uncertainty"]["probability_target"]
    cheapest = expected["plans"]["cheapest"]
    assert (d.plan is None) == (cheapest is None)
    if d.plan is not None:
        assert list(d.plan.optimizations) == cheapest["optimizations"] and d.plan.effort == cheapest["effort"]
    assert list(d.tornado["name"]) == [s["name"] for s in expected["uncertainty"]["sensitivity"]]
    assert d.to_dict()["uncertainty"] == expected["uncertainty"]


def test_the_headline_figures_by_hand():
    # llm-request: decode 900 of 1,500 ms, made 2× faster: 600 + 450 = 1,050 ms.
    a = ad.load(EXAMPLES / "llm-request.xlsx").analyse()
    assert a.new_total == pytest.approx(1050)
    assert a.speedup == pytest.approx(1500 / 1050)
    assert a.time_saved == pytest.approx(450)
    assert a.ceiling == pytest.approx(1 / (1 - 900 / 1500))
    assert a.summary.startswith("Making Autoregressive decode 2× faster makes the whole workload 1.43× faster")
    table = a.to_pandas()
    assert list(table["new_time"]) == pytest.approx([40, 60, 300, 450, 200])
    assert table["fraction"].sum() == pytest.approx(1)


def test_profiles_are_immutable_and_with_optimization_gives_a_new_one():
    p = ad.load(EXAMPLES / "llm-request.xlsx")
    before = p.optimizations.copy()
    q = p.with_optimization("Faster decode", targets=["Autoregressive decode"], k=3)
    assert p.optimizations.equals(before)  # the original is unchanged
    assert q.optimizations.loc[q.optimizations["name"] == "Faster decode", "k"].item() == 3
    assert len(q.optimizations) == len(p.optimizations)  # the same name is replaced, not added
    assert q.analyse().new_total == pytest.approx(600 + 900 / 3)
    r = q.with_optimization("Prefill", ["Prompt prefill"], 1.5)
    assert len(r.optimizations) == len(q.optimizations) + 1
    assert q.with_optimization("Faster decode", ["Autoregressive decode"], k=3) == q != p  # equal by value
    assert r.analyse().new_total == pytest.approx(600 - 300 + 300 / 1.5 + 900 / 3)
    with pytest.raises(AttributeError):
        p.total = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        ad.Profile()


def test_components_read_back_through_from_pandas():
    p = ad.load(EXAMPLES / "training-iteration.xlsx")
    table = p.components
    assert list(table.columns[:4]) == ["name", "time", "scaling", "group"]
    q = ad.Profile.from_pandas(table)
    assert q.components.equals(table)
    assert q.unit == p.unit and q.total == p.total


def test_from_pandas_reads_a_table_as_a_csv_is_read(tmp_path, capsys):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"Component": ["load", "compute", "sync"], "Time (ms)": [20, 70, 10]})
    frame["Scaling"] = ["serial", "parallel", "communication"]
    csv = tmp_path / "p.csv"
    frame.to_csv(csv, index=False)
    from_frame = ad.Profile.from_pandas(frame).analyse().to_dict()
    assert from_frame == cli_json(capsys, "report", csv, "--json")
    bad = pd.DataFrame({"Component": ["a", "b"], "Time (ms)": [10, "soon"]})
    with pytest.raises(ad.ProfileError, match=r"DataFrame!B3"):
        ad.Profile.from_pandas(bad)


@pytest.mark.parametrize("trace", [ONE_GPU, SIXTEEN_GPU])
def test_whatif_to_dict_is_whatif_json(capsys, trace):
    w = ad.whatif(trace, {"gemm": 2, "re:^aten::": 1.5}, step="ProfilerStep#")
    expected = cli_json(capsys, "whatif", trace, "--speedup", "gemm=2", "--speedup", "re:^aten::=1.5", "--json")
    assert w.to_dict() == expected
    assert (w.speedup, w.sum_speedup, w.predicted) == (
        expected["speedup"],
        expected["sum_speedup"],
        expected["predicted"],
    )
    path = w.critical_path
    assert dict(path["baseline"]) == expected["critical_path"]["by_kind"]
    assert dict(path["predicted"]) == expected["critical_path"]["by_kind_predicted"]
    assert path["baseline"].sum() == pytest.approx(expected["baseline"], rel=1e-9)  # the path adds up to the step
    assert list(w.steps["predicted"]) == [s["predicted"] for s in expected["step_list"]]


def test_whatif_takes_pattern_texts_too():
    by_dict = ad.whatif(ONE_GPU, {"gemm": 2})
    assert ad.whatif(ONE_GPU, ["gemm=2"]).to_dict() == by_dict.to_dict()


@pytest.mark.parametrize(
    ("speedups", "args"),
    [
        ({"gemm": 0}, ["--speedup", "gemm=0"]),
        ({"re:[": 2}, ["--speedup", "re:[=2"]),
        ({"no-such-kernel-anywhere": 2}, ["--speedup", "no-such-kernel-anywhere=2"]),
    ],
)
def test_whatif_refuses_as_the_command_does(capsys, speedups, args):
    with pytest.raises(ad.BadInputError) as caught:
        ad.whatif(ONE_GPU, speedups)
    assert isinstance(caught.value, ad.Error)
    assert str(caught.value) == cli_error(capsys, "whatif", ONE_GPU, *args)


def test_a_missing_file_is_named(capsys, tmp_path):
    missing = tmp_path / "nowhere.xlsx"
    with pytest.raises(ad.ProfileError) as caught:
        ad.load(missing)
    assert isinstance(caught.value, ad.Error)
    assert str(caught.value) == cli_error(capsys, "report", missing)
    with pytest.raises(ad.Error) as trace_error:
        ad.whatif(tmp_path / "none.json.gz", {"gemm": 2})
    assert str(trace_error.value) == cli_error(capsys, "whatif", tmp_path / "none.json.gz", "--speedup", "gemm=2")


def test_a_bad_k_and_a_bad_target_are_refused(capsys):
    p = ad.load(EXAMPLES / "llm-request.xlsx")
    with pytest.raises(ad.ProfileError, match="Faster decode"):
        p.with_optimization("Faster decode", ["Autoregressive decode"], k=0)
    with pytest.raises(ad.ProfileError, match="Nowhere"):
        p.with_optimization("Faster decode", ["Nowhere"], k=2)
    with pytest.raises(ad.BadInputError, match='k: "fast" is not a speedup'):
        p.with_optimization("Faster decode", ["Autoregressive decode"], k="fast")
    with pytest.raises(ad.BadInputError, match="k: None is not a number"):
        p.with_optimization("Faster decode", ["Autoregressive decode"], k=None)  # type: ignore[arg-type]
    typed = p.with_optimization("Faster decode", ["Autoregressive decode"], k="3x", effort="4 days", confidence="90%")
    row = typed.optimizations.iloc[0]
    assert (row["k"], row["effort"], row["confidence"]) == (3, 4, 0.9)  # read by the window's parsers
    assert p.analyse(target=700).to_dict()["target"]["time"] == 700  # a number is in the profile's unit
    with pytest.raises(ad.BadInputError) as caught:
        p.analyse(target="soon")
    assert str(caught.value) == cli_error(capsys, "report", EXAMPLES / "llm-request.xlsx", "--target", "soon")


def test_a_trace_loads_as_import_makes_it(capsys):
    p = ad.load(ONE_GPU)
    expected = cli_json(capsys, "import", ONE_GPU, "--json")
    assert list(p.components["name"]) == [c["name"] for c in expected["components"]]
    assert list(p.components["time"]) == [c["time"] for c in expected["components"]]
    by_op = ad.load(ONE_GPU, group_by="op", top=5)
    expected = cli_json(capsys, "import", ONE_GPU, "--group-by", "op", "--top", 5, "--json")
    assert list(by_op.components["name"]) == [c["name"] for c in expected["components"]]
    with pytest.raises(ad.BadInputError, match="only apply to profiler traces"):
        ad.load(EXAMPLES / "llm-request.xlsx", group_by="op")
    with pytest.raises(ad.BadInputError, match="not a grouping"):
        ad.load(ONE_GPU, group_by="colour")


def test_decide_says_the_odds_for_a_target():
    p = ad.load(EXAMPLES / "training-iteration.xlsx")  # 4× on 600 of 1,000 ms: 550 ms, single-valued
    assert p.decide(target="600 ms").probability == 1.0
    assert p.decide(target="500 ms").probability == 0.0
    assert p.decide(target="600 ms").tornado.empty
    assert "600 ms" in p.decide(target="600 ms").summary
    with pytest.raises(ad.BadInputError, match="no target time"):
        ad.load(EXAMPLES / "llm-request-after.xlsx").with_target(None).decide()


def test_fit_to_dict_is_fit_json(capsys):
    f = ad.fit(RUNS)
    assert f.to_dict() == cli_json(capsys, "fit", RUNS, "--json")
    with_profile = ad.fit(RUNS, profile=EXAMPLES / "training-iteration.xlsx")
    expected = cli_json(capsys, "fit", RUNS, "--json", "--profile", EXAMPLES / "training-iteration.xlsx")
    assert with_profile.to_dict() == expected and "profile_comparison" in expected


def test_fit_of_a_dataframe_is_the_fit_of_the_same_csv(tmp_path, capsys):
    pd = pytest.importorskip("pandas")
    runs = pd.DataFrame({"GPUs": [1, 2, 4, 8, 16], "Time (s)": [100, 52, 28, 16, 10.5]})
    csv = tmp_path / "runs.csv"
    runs.to_csv(csv, index=False)
    f = ad.fit(runs)
    expected = cli_json(capsys, "fit", csv, "--json")
    assert f.to_dict() == expected
    # Amdahl by hand: speedup at N = 2 is 100/52.
    assert f.points["speedup"][1] == pytest.approx(100 / 52)
    assert 0.9 < f.parallel_fraction < 1 and f.ceiling == pytest.approx(1 / (1 - f.parallel_fraction))


def test_compare_to_dict_is_compare_json(capsys):
    before, after = EXAMPLES / "llm-request.xlsx", EXAMPLES / "llm-request-after.xlsx"
    c = ad.compare(before, after)
    expected = cli_json(capsys, "compare", before, after, "--json")
    assert c.to_dict() == expected
    assert (c.predicted_speedup, c.measured_speedup) == (expected["predicted_speedup"], expected["measured_speedup"])
    assert list(c.components["name"]) == [r["name"] for r in expected["components"]]
    # Profiles in hand compare as their files do.
    from_profiles = ad.compare(ad.load(before), ad.load(after)).to_dict()
    assert from_profiles == expected


def test_compare_refuses_as_the_command_does(capsys):
    before = EXAMPLES / "llm-request.xlsx"
    with pytest.raises(ad.BadInputError) as caught:
        ad.compare(before, ONE_GPU)
    assert str(caught.value) == cli_error(capsys, "compare", before, ONE_GPU)
    with pytest.raises(ad.BadInputError) as bad_pair:
        ad.compare(before, EXAMPLES / "llm-request-after.xlsx", ["Decode"])
    assert str(bad_pair.value) == cli_error(
        capsys, "compare", before, EXAMPLES / "llm-request-after.xlsx", "--pair", "Decode"
    )


def test_every_public_name_is_typed_and_documented():
    import inspect

    for name in ad.__all__:
        if name == "__version__":
            continue
        value = getattr(ad, name)
        assert inspect.getdoc(value), name
        if inspect.isclass(value):
            for attr, member in vars(value).items():
                if attr.startswith("_") or not (callable(member) or isinstance(member, property)):
                    continue
                assert inspect.getdoc(member), f"{name}.{attr}"
    assert (ROOT / "amdahl_desk" / "py.typed").exists()
