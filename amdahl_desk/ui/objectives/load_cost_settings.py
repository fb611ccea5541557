"""The "Load and cost" settings: arrival rate, servers, load objective, GPU price, watts, energy price.

Each field is read by the model's parser for it (the one the workbook reader uses), with the locale's
decimal separator; a refusal is explained under the field and changes nothing.
"""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...model.errors import ProfileError
from ...model.load_settings import SETTING_PARSERS
from ...model.profile import Settings
from ...model.quantities import same_currency
from ...model.values import ParseError
from ...present.cells import settings_fields
from ...present.refusals import refusal_text
from ...present.setting_rows import LOAD_AND_COST, SETTING_ROWS, meaning_in
from ..core.document import Document
from ..core.field_undo import commits_when_finished, committed
from ..core.locale_text import locale_numbers
from ..core.qt_util import locale_decimal
from ..core.state import Aspect
from ..core.style_sheets import ERROR_TEXT, MUTED_TEXT, REFUSED_FIELD

PLACEHOLDERS = {
    "arrival_rate": "empty: no load analysis (14, 120/s, 7200/min)",
    "servers": "1",
    "load_objective": "End to end",
    "gpu_price_per_hour": "$2.50, 2.5 EUR",
    "watts_per_gpu": "700 W (optional)",
    "energy_price_per_kwh": "0.12 (optional)",
    "plan_confidence": "80%",
}


class LoadCostSettings(QWidget):
    """A form over the profile's load and cost settings; edits go through ``Document.change_settings``."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.fields: dict[str, QLineEdit] = {}
        self.messages: dict[str, QLabel] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for row in SETTING_ROWS:
            if row.section != LOAD_AND_COST:
                continue  # the plans' settings belong with the plans
            edit = QLineEdit(self)
            edit.setObjectName(row.field)
            edit.setPlaceholderText(PLACEHOLDERS.get(row.field, ""))
            edit.setToolTip(meaning_in(row, locale_numbers()))
            edit.editingFinished.connect(lambda f=row.field: self.commit(f))
            commits_when_finished(edit)
            message = QLabel(self)
            message.setStyleSheet(ERROR_TEXT)
            message.setWordWrap(True)
            message.setVisible(False)
            box = QWidget(self)
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(1)
            column.addWidget(edit)
            column.addWidget(message)
            label = QLabel(f"{row.label}:", self)
            label.setBuddy(edit)
            form.addRow(label, box)
            self.fields[row.field], self.messages[row.field] = edit, message
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        note = QLabel(
            "M/M/c: Poisson arrivals, exponential service times; utilization and the saturation wall hold "
            "for any service times. Prices in one currency.",
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet(MUTED_TEXT)
        layout.addWidget(note)
        layout.addStretch(1)
        doc.subscribe({Aspect.SETTINGS}, self.refresh)  # another profile touches its settings too
        self.refresh()

    def refresh(self) -> None:
        """Show the settings as the document has them (a field being refused keeps its text)."""
        profile = self.doc.profile
        texts = settings_fields(profile.settings, profile.unit, locale_numbers())
        for name, edit in self.fields.items():
            if not self.messages[name].isHidden():
                continue
            if edit.text() != texts[name]:
                edit.setText(texts[name])

    def commit(self, name: str) -> bool:
        """Read the field's text with its parser and ask the document to change the setting; False if refused."""
        edit = self.fields[name]
        text = edit.text().strip()
        settings = self.doc.profile.settings
        label = next(r.label for r in SETTING_ROWS if r.field == name)
        changes: dict[str, Any]
        try:
            if not text:
                changes = {name: getattr(Settings(), name)}  # an emptied field is back at its default
            else:
                value = SETTING_PARSERS[name](text, locale_decimal())
                if name == "gpu_price_per_hour":
                    amount, currency = cast(tuple[float, str], value)
                    other = settings.currency if settings.energy_price_per_kwh is not None else ""
                    changes = {name: amount, "currency": same_currency(currency, other)}
                elif name == "energy_price_per_kwh":
                    amount, currency = cast(tuple[float, str], value)
                    other = settings.currency if settings.gpu_price_per_hour is not None else ""
                    changes = {name: amount, "currency": same_currency(other, currency)}
                else:
                    changes = {name: value}
            self.doc.change_settings(f"Set {label.lower()}", **changes)
        except (ParseError, ProfileError) as exc:
            self._refuse(name, exc)
            return False
        self._accept(name)
        return True

    def _refuse(self, name: str, exc: Exception) -> None:
        text = (
            refusal_text(exc.problems[0], locale_numbers())
            if isinstance(exc, ProfileError) and exc.problems
            else str(exc)
        )
        edit, message = self.fields[name], self.messages[name]
        edit.setStyleSheet(REFUSED_FIELD)
        message.setText(text[0].upper() + text[1:] if text else text)
        message.setVisible(True)
        edit.setToolTip(message.text())

    def _accept(self, name: str) -> None:
        edit, message = self.fields[name], self.messages[name]
        edit.setStyleSheet("")
        message.setVisible(False)
        edit.setToolTip(meaning_in(next(r for r in SETTING_ROWS if r.field == name), locale_numbers()))
        self.refresh()
        committed(edit)

    def message(self, name: str) -> str:
        """The refusal shown under a field ("" when none)."""
        return "" if self.messages[name].isHidden() else self.messages[name].text()
