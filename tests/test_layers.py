"""At run time too: importing the model, the files layer or a headless command loads no Qt.

The import-linter contracts (tests/test_static_checks.py) check the import statements; this test checks what
they cannot see: modules imported by name on use (the command line's subcommands, the packages' names loaded on
first use). One fresh interpreter imports every module in layer order (model, files, the API, the command
line), and after each import looks for what its layer must not have loaded: the first module after which a
forbidden library is loaded is the one that loaded it.
"""

import json
import subprocess
import sys

SCRIPT = r"""
import importlib, json, pkgutil, sys

QT = ["PySide6", "pyqtgraph", "shiboken6"]
SPREADSHEETS = ["openpyxl", "python_calamine"]

def modules(package, leave_out=()):
    pkg = importlib.import_module(package)
    return [m.name for m in pkgutil.walk_packages(pkg.__path__, package + ".") if m.name not in leave_out]

order = (
    [("amdahl_desk.model", QT + SPREADSHEETS)]
    + [(m, QT + SPREADSHEETS) for m in modules("amdahl_desk.model")]
    + [("amdahl_desk.files", QT)]
    + [(m, QT) for m in modules("amdahl_desk.files")]
    + [(m, QT) for m in ("amdahl_desk", "amdahl_desk.api", "amdahl_desk.api_parts", "amdahl_desk.cli")]
    + [(m, QT) for m in modules("amdahl_desk.api_parts", ["amdahl_desk.api_parts.chart"])]
    + [(m, QT) for m in modules("amdahl_desk.cli", ["amdahl_desk.cli.window"])]
)
found = []
for name, forbidden in order:
    importlib.import_module(name)
    loaded = [f for f in forbidden if f in sys.modules]
    if loaded:
        found.append([name, loaded])
        break  # every later module would show the same
print(json.dumps({"checked": len(order), "found": found}))
"""


def test_no_qt_below_the_ui():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["found"] == [], f"this import loaded what its layer must not: {result['found']}"
    assert result["checked"] > 100  # every module of the model, the files layer, the API and the command line
