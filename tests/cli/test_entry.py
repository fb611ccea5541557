"""The command as a process: a headless command's output is whole and its exit status kept, though the
process ends without tearing the interpreter down."""

import json
import subprocess
import sys

from amdahl_desk.resources import example_path


def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "amdahl_desk", *args], capture_output=True, **kwargs)


def test_a_report_written_to_a_file_is_whole(tmp_path):
    out = tmp_path / "report.json"
    with out.open("wb") as fh:
        done = subprocess.run([sys.executable, "-m", "amdahl_desk", "report", str(example_path()), "--json"], stdout=fh)
    assert done.returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["baseline_total"] == 1000 and data["combined"]["overall_speedup"] > 1.8


def test_exit_status_and_message_of_a_refusal_survive_the_fast_exit(tmp_path):
    done = run("report", str(tmp_path / "missing.xlsx"), text=True)
    assert done.returncode == 2 and "no such file" in done.stderr and done.stdout == ""


def test_a_reader_that_stops_early_ends_the_command_quietly():
    # head -c 10: the pipe closes while the report is written; no traceback, status 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "amdahl_desk", "report", str(example_path()), "--json", "--indent", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stdout, proc.stderr:
        proc.stdout.read(10)
        proc.stdout.close()
        err = proc.stderr.read()
    assert proc.wait(timeout=60) in (0, 1, -13, 141) and b"Traceback" not in err
