"""The Qt window: a thin skin over the model that redraws from each analysis."""

import sys


def without_source_scan() -> None:
    """For the window's own process, before its modules load: PySide6 no longer reads each module's source.

    PySide6's import hook reads the source of every Python module imported after it (``inspect.getsource``, 0.1-2 ms
    each: 23 ms of the window's start, and as much again when the charts load pyqtgraph) to learn whether it names
    PySide6. One that does takes Qt's names as its own ``from __feature__ import`` chooses (none: Qt's own); one that
    does not takes whatever the module that chose last chose. No module of the window's process chooses a feature, so
    both come to Qt's own names there, and every module is taken as one that names PySide6. A program that draws a
    chart through the Python API is left as PySide6 has it: its own modules may speak snake_case
    (``tests/ui/test_feature_host.py``). A PySide6 without this hook is left as it is."""
    import PySide6.QtCore  # noqa: F401 - the hook is set when the binding loads

    feature = sys.modules.get("PySide6.support.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        setattr(feature, "_mod_uses_pyside", lambda _module: True)  # noqa: B010 - a name mypy does not know
