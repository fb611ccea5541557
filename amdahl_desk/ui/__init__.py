"""The Qt window: a thin skin over the model that redraws from each analysis."""

import sys

import PySide6.QtCore  # noqa: F401 - first, so that its import hook is set as below before the window's modules load


def _no_source_scan() -> None:
    """PySide6 reads the source of every Python module imported after it (``inspect.getsource``, 0.1-2 ms each) to
    learn whether the module opts into ``from __feature__ import snake_case``: 23 ms of the window's start, and as
    much again when the charts load pyqtgraph. No module here opts in, and the scan's answer only tells a module
    that uses no feature from one that might: every module is taken as the second, which is what all of them are
    while none opts in. A module that does opt in is still seen, by its import of ``__feature__`` itself. A PySide6
    without this hook is left as it is."""
    feature = sys.modules.get("PySide6.support.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        setattr(feature, "_mod_uses_pyside", lambda _module: True)  # noqa: B010 - a name mypy does not know


_no_source_scan()
