"""report --json: every warning of reading the file in "warnings", compact output for programs, pretty for people."""

import json
import sys

import pytest

from amdahl_desk.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def csv_file(tmp_path, text, name="p.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_file_warnings_reach_the_json_warnings(tmp_path, capsys):
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\nb,600\nTotal,1100\n")
    code, out, err = run(capsys, "report", path, "--json")
    assert code == 0
    warnings = json.loads(out)["warnings"]
    assert len(warnings) == 1 and warnings[0].startswith("row 4, column 2: the total line says 1,100 ms")
    assert "gap of 100 ms (10.00%)" in warnings[0] and "more than the 0.5%" in warnings[0]
    assert "warning: row 4, column 2" in err  # and still on stderr for a person


def test_a_total_line_within_rounding_still_states_its_gap(tmp_path, capsys):
    # 3 ms off on 1,000: inside the 0.5% taken as rounding, but the gap is said.
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\nb,600\nAll stages,1003\n")
    warnings = json.loads(run(capsys, "report", path, "--json")[1])["warnings"]
    assert len(warnings) == 1
    assert '"All stages" was read as the total line' in warnings[0]
    assert "within 0.5%" in warnings[0] and "gap of 3 ms (0.30%)" in warnings[0]
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\nb,600\nTotal,1003\n", "t.csv")
    [warning] = json.loads(run(capsys, "report", path, "--json")[1])["warnings"]
    assert "gap of 3 ms (0.30%), within the 0.5% taken as rounding" in warning


def test_an_exact_total_line_is_dropped_without_a_gap(tmp_path, capsys):
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\nb,600\nTotal,1000\n")
    assert json.loads(run(capsys, "report", path, "--json")[1])["warnings"] == []


def test_json_is_compact_for_a_program_and_indented_on_request(tmp_path, capsys):
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\nb,600\n")
    out = run(capsys, "report", path, "--json")[1]
    assert out.count("\n") == 1 and out.startswith('{"unit":"ms",')  # one line, no re-spacing pass
    out = run(capsys, "report", path, "--json", "--indent", "4")[1]
    assert '\n    "unit": "ms"' in out
    assert json.loads(out) == json.loads(run(capsys, "report", path, "--json")[1])


def test_json_is_indented_for_a_terminal(tmp_path, capsys, monkeypatch):
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\nb,600\n")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    out = run(capsys, "report", path, "--json")[1]
    assert '\n  "unit": "ms"' in out


@pytest.mark.parametrize("bad", ["-1", "x", "100"])
def test_bad_indent_is_refused(tmp_path, capsys, bad):
    path = csv_file(tmp_path, "Component,Time (ms)\na,400\n")
    code, _, err = run(capsys, "report", path, "--json", "--indent", bad)
    assert code == 2 and "indent" in err


def all_keys(value, prefix=""):
    """Every key path in a JSON value, lists entered: {"scaling.points[].gpus", …}."""
    keys = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            keys.add(prefix + key)
            keys |= all_keys(inner, prefix + key + ".")
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        for item in value:
            keys |= all_keys(item, prefix[:-1] + "[].")
    return keys


def test_the_json_contract_document_names_every_key(capsys):
    from pathlib import Path

    from amdahl_desk.resources import example_path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "json-contract.md").read_text(encoding="utf-8")
    documented = set()
    for line in doc.splitlines():
        if line.startswith("| `"):
            documented.add(line.split("`")[1])
    # The training example has a target; the LLM one objectives, a loaded service and a GPU price too.
    for example in ("training-iteration.xlsx", "llm-request.xlsx"):
        code, out, _ = run(capsys, "report", str(example_path(example)), "--json", "--target", "600")
        assert code == 0
        leaves = {key.rsplit(".", 1)[-1] for key in all_keys(json.loads(out))}
        assert leaves <= documented, leaves - documented
    assert {"overlaps", "component", "optimizations", "met_by_plan", "warnings"} <= documented
    assert {"objectives", "load", "max_arrival_rate", "p99_wait", "gpu_hours", "cost", "saved_per_run"} <= documented


def test_the_commands_component_entries_are_the_models_dictionaries(capsys):
    """report --json writes its components through msgspec structs: the same objects, keys in the same order."""
    from amdahl_desk.cli.json_report import COMPONENT_FIELDS, to_json_dict
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.resources import example_path

    path = example_path("llm-request.xlsx")
    code, out, _ = run(capsys, "report", str(path), "--json")
    assert code == 0
    written = json.loads(out)["components"]
    profile = load_profile(path).profile
    expected = to_json_dict(profile, analyse(profile))["components"]
    assert written == expected and len(written) == len(profile.components) > 3
    assert all(tuple(entry) == COMPONENT_FIELDS for entry in written)
    assert written[0]["time"] == profile.components[0].time  # independently: the file's first time
