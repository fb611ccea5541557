"""Test setup shared by every folder: Qt offscreen, PySide6 for pyqtgraph, settings in a temp folder.

``-m "not gui" -p no:pytest-qt`` runs the tests that need no Qt without importing PySide6: every test of
tests/ui starts Qt (its conftest marks them ``gui``), so that folder is not even collected then, and pytest-qt's
own settings in pyproject.toml are declared here while the plugin is left out.
"""

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

UI = Path(__file__).parent / "ui"
PYTEST_QT_SETTINGS = {"qt_api": "string", "qt_log_level_fail": "string", "qt_log_ignore": "linelist"}


def pytest_addoption(parser, pluginmanager):
    if not pluginmanager.has_plugin("pytest-qt"):  # -p no:pytest-qt: its settings are read by nobody, not unknown
        for name, kind in PYTEST_QT_SETTINGS.items():
            parser.addini(name, "pytest-qt's setting (the plugin is not loaded)", type=kind)


def selects_gui_tests(markexpr: str) -> bool:
    """Whether ``-m markexpr`` may select a test marked ``gui`` (whatever other markers it has)."""
    if not markexpr:
        return True
    from _pytest.mark.expression import Expression

    def markers(others: bool):
        return lambda name, /, **_: name == "gui" or others  # gui, and every other marker or none

    expression = Expression.compile(markexpr)
    return expression.evaluate(markers(False)) or expression.evaluate(markers(True))


def pytest_ignore_collect(collection_path, config):
    if collection_path == UI and not selects_gui_tests(config.option.markexpr):
        return True  # nothing there could be selected, and importing it would import Qt
    return None
