"""The "Objectives, load and cost" tab: the Objectives sheet and the load and cost settings."""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from ..core.document import Document
from ..core.style_sheets import MUTED_TEXT
from .load_cost_settings import LoadCostSettings
from .objectives_sheet import ObjectivesSheetModel, ObjectivesSheetView


class ObjectivesPanel(QScrollArea):
    """What a person types for objectives, load and cost; the answers are in the results pane."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        sheet = QGroupBox("Objectives — each with its own target")
        column = QVBoxLayout(sheet)
        self.sheet_model = ObjectivesSheetModel(doc)
        self.sheet = ObjectivesSheetView(self.sheet_model)
        self.sheet.setMinimumHeight(140)
        hint = QLabel(
            'Components name their objectives in the Objectives column ("TTFT; End to end"). End to end holds '
            "every component; its target is the Settings' target time. Delete removes the selected rows.",
        )
        hint.setWordWrap(True)
        hint.setStyleSheet(MUTED_TEXT)
        column.addWidget(self.sheet)
        column.addWidget(hint)
        settings = QGroupBox("Load and cost")
        box = QVBoxLayout(settings)
        self.settings = LoadCostSettings(doc)
        box.addWidget(self.settings)
        layout.addWidget(sheet)
        layout.addWidget(settings)
        layout.addStretch(1)
        self.setWidget(inner)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
