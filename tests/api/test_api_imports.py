"""The API's numbers need neither Qt nor pandas: measured in fresh interpreters, as a notebook's kernel starts."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "llm-request.xlsx"
TRACE = ROOT / "tests" / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"
RUNS = ROOT / "tests" / "fit" / "fixtures" / "training-gpus.csv"
QT = ("PySide6", "pyqtgraph", "shiboken6", "amdahl_desk.ui")


def python(code: str) -> str:
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.strip()


def test_the_numbers_load_no_qt():
    code = f"""
import sys
import amdahl_desk as ad
p = ad.load({str(EXAMPLE)!r})
a = p.with_optimization("Faster decode", ["Autoregressive decode"], 2).analyse()
a.to_dict(); a.summary; a.text
d = p.with_optimization("Prefill", ["Prompt prefill"], 1.5, k_low=1.1, k_high=2, effort=3).decide(target="1200 ms")
d.probability; d.plan; d.summary
w = ad.whatif({str(TRACE)!r}, {{"gemm": 2}}); w.to_dict(); w.summary
ad.load({str(TRACE)!r}).analyse().to_dict()
f = ad.fit({str(RUNS)!r}); f.to_dict(); f.text
c = ad.compare({str(EXAMPLE)!r}, {str(EXAMPLE).replace("request", "request-after")!r}); c.to_dict(); c.text
a.chart("speedup")  # a chart not yet drawn loads nothing
print(sorted({{m.split(".")[0] if not m.startswith("amdahl_desk") else m for m in sys.modules if m.startswith({QT!r})}}))
"""
    assert python(code) == "[]"


def test_import_amdahl_desk_within_half_a_second():
    code = """
import time
t = time.perf_counter()
import amdahl_desk as ad
ad.load, ad.whatif, ad.fit, ad.compare, ad.Error
print(time.perf_counter() - t)
"""
    python(code)  # once to compile the bytecode, as an installed package has it
    seconds = min(float(python(code)) for _ in range(3))
    print(f"import amdahl_desk and its API names: {seconds * 1000:.1f} ms (best of 3, bytecode compiled)")
    assert seconds < 0.5


def test_tables_without_pandas_name_the_extra():
    code = f"""
import sys
sys.modules["pandas"] = None  # as if it were not installed: importing it raises ImportError
import amdahl_desk as ad
p = ad.load({str(EXAMPLE)!r})
a = p.analyse()
print(round(a.speedup, 6), a.to_dict()["combined"]["new_total"])  # the numbers need no pandas
for table in (lambda: p.components, lambda: p.optimizations, a.to_pandas, lambda: ad.whatif({str(TRACE)!r}, {{"gemm": 2}}).critical_path):
    try:
        table()
    except ad.MissingExtraError as exc:
        assert isinstance(exc, ad.Error) and isinstance(exc, ImportError)
        print(exc)
"""
    lines = python(code).splitlines()
    assert lines[0].split() == [str(round(1500 / 1050, 6)), "1050.0"]  # 900 ms of 1,500 made 2× faster
    assert len(lines) == 5
    for line in lines[1:]:
        assert 'pip install "amdahl-desk[notebook]"' in line and "pandas" in line


@pytest.mark.parametrize("name", ["Error", "load", "Profile", "whatif", "fit", "compare", "Analysis", "WhatIf"])
def test_the_package_re_exports_the_api(name):
    import amdahl_desk
    import amdahl_desk.api

    assert getattr(amdahl_desk, name) is getattr(amdahl_desk.api, name)
    assert name in amdahl_desk.__all__
