"""``amdahl-desk compare``: the JSON contract, the reviewer's text, and clear refusals with exit status 2."""

import json

import pytest

from amdahl_desk.cli import main
from amdahl_desk.resources import example_path

BEFORE = str(example_path("llm-request.xlsx"))
AFTER = str(example_path("llm-request-after.xlsx"))


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_json_contract_on_the_bundled_llm_pair(capsys):
    code, out, err = run(capsys, "compare", BEFORE, AFTER, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) >= {
        "before_total",
        "after_total",
        "unit",
        "predicted_speedup",
        "measured_speedup",
        "components",
        "bottleneck",
    }
    # Plan 2× on decode: 1,500 → 1,050 ms (1.43×); measured decode 530 and streaming 240: 1,170 ms (1.28×)
    assert (data["unit"], data["before_total"], data["after_total"]) == ("ms", 1500, 1170)
    assert data["predicted_speedup"] == pytest.approx(1500 / 1050)
    assert data["measured_speedup"] == pytest.approx(1500 / 1170)
    rows = {r["name"]: r for r in data["components"]}
    assert set(data["components"][0]) >= {"name", "before", "after", "predicted_k", "measured_k", "status"}
    decode = rows["Autoregressive decode"]
    assert (decode["before"], decode["after"], decode["predicted_k"], decode["status"]) == (900, 530, 2, "short")
    assert decode["measured_k"] == pytest.approx(900 / 530)
    assert rows["Token streaming and completion work"]["status"] == "regressed"
    assert rows["Prompt prefill"]["status"] == "unchanged"
    assert data["bottleneck"]["before"] == {"name": "Autoregressive decode", "share": pytest.approx(0.6)}
    assert data["bottleneck"]["after"] == {"name": "Autoregressive decode", "share": pytest.approx(530 / 1170)}
    assert data["sentence"].startswith("Predicted 1.43×, measured 1.28×: Autoregressive decode got 1.7× instead of 2×")
    assert data["warnings"] == []
    assert data["adopted"] == [
        {"name": "Faster decode", "planned": 2, "measured": pytest.approx(900 / 530), "note": ""}
    ]


def test_text_for_a_reviewer(capsys):
    code, out, _ = run(capsys, "compare", BEFORE, AFTER)
    assert code == 0
    assert "Predicted 1.43×, measured 1.28×: Autoregressive decode got 1.7× instead of 2×" in out
    assert "plan: Faster decode (2× on Autoregressive decode)" in out
    assert "fell short" in out and "regressed" in out
    assert "120 ms short of the plan" in out  # 1,170 measured − 1,050 promised
    assert "Bottleneck: Autoregressive decode was 60% of the time" in out
    assert "Adopt measured k: Faster decode 2× → 1.7×." in out


def test_csv_pair_in_other_units_with_a_rename(capsys, tmp_path):
    # Before in ms with the plan's optimization would need a workbook; a CSV has no plan, so predicted k is 1.
    before = write(tmp_path / "before.csv", "Component,Time (ms)\nLoad,200\nDecode,800\nOld step,100\n")
    after = write(tmp_path / "after.csv", "Component,Time (s)\nload,0.2\nDecode (paged),0.4\nNew step,0.05\n")
    code, out, err = run(capsys, "compare", before, after, "--pair", "decode=decode (PAGED)", "--json")
    assert code == 0, err
    data = json.loads(out)
    # ms: 200 + 400 + 50 = 650 after, 1,100 before → 1.6923×
    assert data["unit"] == "ms" and data["after_unit"] == "s"
    assert data["after_total"] == pytest.approx(650) and data["measured_speedup"] == pytest.approx(1100 / 650)
    statuses = [(r["name"], r["after_name"], r["status"], r["measured_k"]) for r in data["components"]]
    assert statuses == [
        ("Load", "load", "unchanged", 1),
        ("Decode", "Decode (paged)", "met", 2),
        ("Old step", None, "removed", None),
        ("New step", "New step", "added", None),
    ]
    assert data["pairs"] == [{"before": "Decode", "after": "Decode (paged)"}]


def test_eliminated_shows_as_such(capsys, tmp_path):
    before = write(tmp_path / "b.csv", "Component,Time\nA,10\nB,30\n")
    after = write(tmp_path / "a.csv", "Component,Time\nA,0\nB,30\n")
    code, out, _ = run(capsys, "compare", before, after)
    assert code == 0 and "eliminated" in out
    code, out, _ = run(capsys, "compare", before, after, "--json")
    a = json.loads(out)["components"][0]
    assert (a["measured_k"], a["eliminated"], a["status"]) == (None, True, "met")


def test_tolerance(capsys, tmp_path):
    before = write(tmp_path / "b.csv", "Component,Time\nA,100\nB,100\n")
    after = write(tmp_path / "a.csv", "Component,Time\nA,101\nB,50\n")
    _, out, _ = run(capsys, "compare", before, after, "--json")
    assert json.loads(out)["components"][0]["status"] == "regressed"
    _, out, _ = run(capsys, "compare", before, after, "--json", "--tolerance", "2%")
    assert json.loads(out)["components"][0]["status"] == "unchanged"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pair", "Decode"], "expected OLD=NEW"),
        (["--pair", "=x"], "expected OLD=NEW"),
        (["--pair", "Nope=Prompt prefill"], '"Nope" is not a component of the before profile'),
        (["--tolerance", "150%"], "--tolerance"),
        (["--group-by", "name"], "--group-by only applies to profiler traces"),
        (["--total"], "--total only applies to profiler traces"),
    ],
)
def test_bad_options_exit_2(capsys, args, message):
    code, out, err = run(capsys, "compare", BEFORE, AFTER, *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_nothing_in_common_exit_2(capsys, tmp_path):
    other = write(tmp_path / "other.csv", "Component,Time\nSomething else,5\n")
    code, out, err = run(capsys, "compare", BEFORE, other)
    assert code == 2 and out == ""
    assert "no component in common" in err and "other.csv" in err


def test_an_unreadable_after_file_exit_2(capsys, tmp_path):
    broken = tmp_path / "after.xlsx"
    broken.write_bytes(b"this is not a workbook")
    code, _, err = run(capsys, "compare", BEFORE, str(broken))
    assert code == 2 and "the after profile cannot be read" in err and "after.xlsx" in err
    assert err.count("\n") == 1  # one problem: one line, as report and export say it
    several = write(tmp_path / "several.csv", "Component,Time\nLoad,-20\nLoad,abc\n")
    code, _, err = run(capsys, "compare", BEFORE, several)
    lines = err.splitlines()
    assert code == 2 and lines[0].endswith("the after profile cannot be read:") and len(lines) >= 3  # one a line
    code, _, err = run(capsys, "compare", BEFORE, str(tmp_path / "missing.csv"))
    assert code == 2 and "no such file" in err


def test_a_trace_mixed_with_a_workbook_exit_2(capsys, tmp_path):
    trace = write(tmp_path / "step.pt.trace.json", '{"traceEvents": []}')
    code, _, err = run(capsys, "compare", BEFORE, trace)
    assert code == 2 and "AFTER is a profiler trace and BEFORE a workbook or CSV table" in err
    code, _, err = run(capsys, "compare", trace, trace)  # two traces are compared; this one holds no events
    assert code == 2 and "the before trace cannot be read" in err and "no complete events" in err


@pytest.mark.parametrize("given", ["0.02", "2%", "0,02"])
def test_the_tolerance_is_read_as_every_share_is(capsys, given):
    code, out, err = run(capsys, "compare", BEFORE, AFTER, "--json", "--tolerance", given)
    assert code == 0, err
    assert json.loads(out)["tolerance"] == pytest.approx(0.02)


@pytest.mark.parametrize("given", ["1", "100%", "-0.1", "two"])
def test_a_tolerance_not_below_one_is_refused(capsys, given):
    code, _, err = run(capsys, "compare", BEFORE, AFTER, "--tolerance", given)
    assert code == 2 and f'--tolerance: "{given}" is not a share' in err


def test_a_refused_pair_prints_no_warning_of_before(capsys, tmp_path):
    """A CSV table against a trace is refused; its own warnings (a name holding a tab) are not printed first, as if
    the comparison had begun."""
    table = write(tmp_path / "before.csv", 'Component,Time (ms)\n"a\tb",3\nc,4\n')
    trace = write(tmp_path / "step.pt.trace.json", '{"traceEvents": []}')
    code, _, err = run(capsys, "compare", table, trace)
    assert code == 2 and "AFTER is a profiler trace and BEFORE a workbook or CSV table" in err
    assert "warning" not in err and "holds a tab" not in err, err
    code, _, err = run(capsys, "compare", table, table)  # a pair that compares: the warnings are said
    assert code == 0 and "holds a tab" in err


def test_listed_in_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "compare" in out
    code, out, _ = run(capsys, "compare", "--help")
    assert code == 0 and "OLD=NEW" in out


def test_the_bundled_after_profile_is_what_its_script_writes():
    import importlib.util
    from pathlib import Path

    from amdahl_desk.files import load_profile

    script = Path(__file__).resolve().parents[2] / "packaging" / "make_examples.py"
    spec = importlib.util.spec_from_file_location("make_examples", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    loaded = load_profile(AFTER)
    assert loaded.warnings == []
    assert loaded.profile == module.llm_request_after()


def test_text_shows_renames_not_changes_of_case(capsys, tmp_path):
    before = write(tmp_path / "before.csv", "Component,Time (ms)\nLoad,200\nDecode,800\n")
    after = write(tmp_path / "after.csv", "Component,Time (s)\nload,0.2\nDecode (paged),0.4\nNew step,0.05\n")
    code, out, _ = run(capsys, "compare", before, after, "--pair", "Decode=Decode (paged)")
    assert code == 0
    assert "Decode → Decode (paged)" in out and "Load → load" not in out
    assert "(converted from s)" in out
    # 1,000 ms before; 200 + 400 + 50 = 650 ms after: 1.54×
    assert "Predicted 1×, measured 1.54×: Decode also got 2× faster, and New step is new (50 ms)." in out


def test_a_before_profile_of_nothing_exit_2(capsys, tmp_path):
    before = write(tmp_path / "b.csv", "Component,Time\nA,0\n")
    after = write(tmp_path / "a.csv", "Component,Time\nA,5\n")
    code, _, err = run(capsys, "compare", before, after, "--group-by", "x", "--total")
    assert code == 2 and "--group-by and --total only apply to profiler traces" in err
    code, _, err = run(capsys, "compare", before, after)
    assert code == 2 and "cannot compare" in err and "add up to 0" in err


def test_the_table_lines_up_wide_and_long_names(capsys, tmp_path):
    """The numbers of a row named in ideographs, or with a name longer than the column, start where every row's do
    (each ideograph two cells of a terminal)."""
    from amdahl_desk.present.text import display_width

    names = ["前向传播 注意力层", "逆伝播と勾配計算", "x" * 75, "plain"]
    before = write(tmp_path / "b.csv", "Component,Time\n" + "".join(f"{n},{100 + i}\n" for i, n in enumerate(names)))
    after = write(tmp_path / "a.csv", "Component,Time\n" + "".join(f"{n},{90 + i}\n" for i, n in enumerate(names)))
    code, out, _ = run(capsys, "compare", before, after)
    assert code == 0
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Component"))
    rows = lines[head + 2 : head + 2 + len(names) + 1]  # the components, then Total
    assert rows[-1].startswith("Total")
    starts = {display_width(line[: line.index(" ms ") - 6]) for line in rows}  # where the Before column starts
    assert len(starts) == 1, rows
