"""Charts out of the window: the export dialog, writing a chart file, and copying a chart to the clipboard."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from ...model.errors import ProfileError
from ...present.inputs import ChartInputs
from ...present.refusals import error_text
from ..charts.base import Chart
from ..charts.registry import Source, chart_entry, chart_title, keys
from ..charts.style import Style
from ..core.document import Document
from ..core.locale_text import locale_numbers
from .file_actions import FileActions, Prompts

ChartMaker = Callable[[str, Style], "Chart[Any]"]


class ChartExports(QObject):
    """Export and copy the registry's charts from the document as it is, with the current optimization selected."""

    def __init__(
        self,
        doc: Document,
        files: FileActions,
        prompts: Prompts,
        inputs: Callable[[], ChartInputs],
        make: ChartMaker,
        dialog_parent: QWidget,
    ) -> None:
        """``inputs`` gives what the charts are drawn from now (the document, the selection, the runs' fits);
        ``make`` builds a chart by key."""
        super().__init__(dialog_parent)
        self.doc, self.files, self.prompts, self.inputs, self.make = doc, files, prompts, inputs, make
        self.dialog_parent = dialog_parent

    def export_dialog(self, chart: str = "slide") -> None:
        from ..charts.export_dialog import ExportDialog, export_title  # QtSvg and the export code load on first use

        # The profile's charts, its trace's and its job's where it has one, then the measured runs' (refused, saying
        # why, until there are runs); a comparison exports from its own tab.
        inputs = self.inputs()
        offered = tuple(
            k
            for k in keys(Source.PROFILE, Source.TRACE, Source.JOB, Source.MEASUREMENTS)
            if chart_entry(k).source not in (Source.TRACE, Source.JOB) or chart_entry(k).source.missing(inputs) is None
        )
        dialog = ExportDialog(chart, self.dialog_parent, offered, inputs=inputs)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        name, fmt, size, transparent = dialog.choice()
        charts = dialog.slide_charts()
        base = (self.doc.path or self.files.imported_from or Path("profile")).stem
        path = self.prompts.choose_file(
            save=True,
            suggested=f"{base}-{name}.{fmt}",
            filters=f"{fmt.upper()} (*.{fmt})",
            title=f"{export_title(name, profile=inputs.profile)} as {fmt.upper()}",
        )
        if path:
            self.export_chart_to(Path(path), name, fmt, size, transparent, charts)

    def export_chart_to(
        self,
        path: Path,
        name: str,
        fmt: str,
        size: tuple[int, int] = (1920, 1080),
        transparent: bool = False,
        slide_charts: tuple[str, ...] = (),
    ) -> bool:
        """Write chart ``name`` (the slide with ``slide_charts``, else its default two) to ``path``."""
        from ..charts.export import export_chart

        if path.suffix.lower() != f".{fmt}":
            path = path.with_suffix(f".{fmt}")
        try:
            export_chart(
                self.make, name, replace(self.inputs(), slide_charts=slide_charts), fmt, path, size, transparent
            )
        except ProfileError as exc:
            self.prompts.show_error("Cannot export", error_text(exc, locale_numbers()))
            return False
        except OSError as exc:
            self.prompts.show_error("Cannot export", f"{path}: {exc.strerror or exc}")
            return False
        self.prompts.show_status(f"Exported {path.name} ({size[0]}×{size[1]})", 8000)
        return True

    def copy_chart(self, name: str, size: tuple[int, int] = (1920, 1080)) -> bool:
        """Put a chart (or the slide) on the clipboard as an image, for pasting into a presentation."""
        from ..charts.export import chart_widget, render_image

        doc = self.doc
        inputs = self.inputs()
        source = chart_entry(name).source
        why = source.missing(inputs)
        if why is not None:
            self.prompts.show_error("Cannot copy", (source is Source.PROFILE and doc.analysis_error) or why)
            return False
        try:
            widget = chart_widget(self.make, name, inputs, size)
        except ProfileError as exc:  # a chart that draws nothing now: its picture would be an empty frame
            self.prompts.show_error("Cannot copy", error_text(exc, locale_numbers()))
            return False
        image = render_image(widget, size)
        widget.close()
        widget.deleteLater()
        QGuiApplication.clipboard().setImage(image)
        self.prompts.show_status(
            f"Copied {chart_title(name, inputs.profile).lower()} ({size[0]}×{size[1]}) to the clipboard", 8000
        )
        return True
