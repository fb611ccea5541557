"""At run time too: importing the model, the files layer or a headless command loads no Qt (the contracts check the source)."""

import pkgutil
import subprocess
import sys

import pytest

import amdahl_desk.api_parts
import amdahl_desk.cli
import amdahl_desk.files
import amdahl_desk.model

MODULES = (
    [f"amdahl_desk.model.{m.name}" for m in pkgutil.iter_modules(amdahl_desk.model.__path__)]
    + [f"amdahl_desk.files.{m.name}" for m in pkgutil.iter_modules(amdahl_desk.files.__path__)]
    + ["amdahl_desk", "amdahl_desk.api", "amdahl_desk.cli"]
    + [
        f"amdahl_desk.api_parts.{m.name}"
        for m in pkgutil.iter_modules(amdahl_desk.api_parts.__path__)
        if m.name != "chart"
    ]
    + [f"amdahl_desk.cli.{m.name}" for m in pkgutil.iter_modules(amdahl_desk.cli.__path__) if m.name != "window"]
)


@pytest.mark.parametrize("module", MODULES)
def test_no_qt_below_the_ui(module):
    forbidden = ["PySide6", "pyqtgraph", "shiboken6"]
    if module.startswith("amdahl_desk.model"):
        forbidden += ["openpyxl", "python_calamine"]
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        f"print([m for m in {forbidden!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"
