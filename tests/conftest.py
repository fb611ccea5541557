"""Test setup shared by every folder: Qt offscreen, PySide6 for pyqtgraph, settings in a temp folder."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
