"""``pytest -m "not gui" -p no:pytest-qt`` collects the whole suite and runs without importing PySide6."""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
# Modules with tests of both kinds: their Qt tests carry the gui marker and import Qt inside the test.
MIXED = ["tests/cli/test_cli.py", "tests/files/test_kinds.py", "tests/packaging/test_packaging.py"]


def pytest_without_qt(*args: str) -> subprocess.CompletedProcess[str]:
    """pytest in a fresh interpreter, pytest-qt left out; its last line says whether PySide6 was imported."""
    code = (
        "import sys, pytest\n"
        f"code = pytest.main({list(args)!r})\n"
        "print('PySide6 imported' if any(m.split('.')[0] == 'PySide6' for m in sys.modules) else 'no PySide6')\n"
        "sys.exit(code)\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_whole_suite_collects_without_qt_when_the_gui_tests_are_left_out():
    run = pytest_without_qt("-m", "not gui", "-p", "no:pytest-qt", "--collect-only", "-q", "tests")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines[-1] == "no PySide6", run.stdout[-3000:]
    assert not any(line.startswith("tests/ui/") for line in lines)  # every test there starts Qt
    assert any(line.startswith("tests/model/") for line in lines)


def test_the_tests_without_the_gui_marker_run_without_qt():
    run = pytest_without_qt("-m", "not gui and not slow", "-p", "no:pytest-qt", "-q", *MIXED)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.splitlines()[-1] == "no PySide6", run.stdout[-3000:]
    assert " passed" in run.stdout and " deselected" in run.stdout  # the gui tests there were left out, not lost


QT_MODULES = re.compile(r"^(PySide6|pyqtgraph|shiboken6|pytestqt|amdahl_desk\.ui)(\.|$)")
QT_FIXTURES = {"qtbot", "qapp", "qtmodeltester", "qtlog"}
# tests/ui's conftest marks every test there; this module has the marker from it alone for now.
MARKED_BY_CONFTEST_ONLY = {"tests/ui/test_nothing_cut.py"}


def modules_of_tests() -> list[Path]:
    return sorted((ROOT / "tests").rglob("test_*.py"))


def imports_qt(node: ast.AST) -> bool:
    """Whether ``node`` (a module's statement, a test) imports Qt, pyqtgraph or the window's code."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Import) and any(QT_MODULES.match(a.name) for a in inner.names):
            return True
        if isinstance(inner, ast.ImportFrom) and inner.level == 0 and QT_MODULES.match(inner.module or ""):
            return True
    return False


def marked_gui(decorators: list[ast.expr]) -> bool:
    return any(ast.unparse(d) == "pytest.mark.gui" for d in decorators)


def test_every_test_that_starts_qt_carries_the_gui_marker():
    """A module of tests/ui says so itself; elsewhere each test that imports Qt or takes a Qt fixture does, or its
    module does (``pytestmark``)."""
    unmarked = []
    for path in modules_of_tests():
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        module_marked = re.search(r"^pytestmark = .*pytest\.mark\.gui", text, re.MULTILINE) is not None
        if name.startswith("tests/ui/"):
            if not module_marked and name not in MARKED_BY_CONFTEST_ONLY:
                unmarked.append(name)
            continue
        if module_marked:
            continue
        tree = ast.parse(text)
        if any(imports_qt(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)):
            unmarked.append(f"{name} (imports Qt at the top)")
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                qt = imports_qt(node) or QT_FIXTURES & {a.arg for a in node.args.args}
                if qt and not marked_gui(node.decorator_list):
                    unmarked.append(f"{name}::{node.name}")
    assert unmarked == []


def test_no_test_waits_a_fixed_time_for_qt():
    """Tests wait for a condition (``qtbot.waitUntil``, ``waitSignal``), never for a number of milliseconds."""
    fixed = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in modules_of_tests() + sorted((ROOT / "tests").rglob("[!t]*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bqtbot\.wait\(|\bQTest\.qWait\(", line)
    ]
    assert fixed == []
