"""The open document, sole owner of the profile: it validates a change once, makes its undo command, announces it.

Views ask (``edit_components``, ``set_optimizations``, ``change_settings`` …) and show the
:class:`ProfileError` they get back as a refusal; they never copy the profile or build commands.
A request applies the change through the model's checked setter (the one validation, O(changed
rows)) and pushes a command whose first redo is already done. Undo and redo call the ``apply_*``
setters below. The analysis is computed lazily on first read after a change, so every view that
reads it sees the current one. ``changed(aspects)`` is the one announcement: once per change, or once
per :meth:`batch`, with what it touched. Views hear of it by aspect — at once with :meth:`subscribe` (the
tables' computed cells), or coalesced to the frame rate through ``core/redraw`` (charts, panels). The
structural signals (rows inserted, removed, reordered) are Qt's item-model protocol, for the table models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ...model.analysis import Analysis, analyse
from ...model.errors import Problem, ProfileError
from ...model.measurement_table import MeasurementTable
from ...model.objective_specs import ObjectiveSpec
from ...model.profile import Component, Optimization, Profile, Settings
from ...model.profile_rules import new_component_problems
from ...model.units import TimeUnit
from ...present.colours import ComponentColours
from ...present.refusals import error_text
from . import commands
from .change import Move, Pending, RowMove
from .component_objectives import ComponentObjectives
from .decision_link import DecisionLink
from .job_link import JobLink
from .locale_text import locale_numbers
from .measured_runs import MeasuredRuns
from .state import EVERYTHING, Aspect, Snapshot
from .trace_link import TraceLink

if TYPE_CHECKING:
    from ...model.fit import FitResult


class Document(QObject, MeasuredRuns):
    """A profile being edited, with everything the views need to follow it."""

    changed = Signal(object)  # once per change (or batch): the Change record (aspects touched, rows, reset, path)
    rowsMoving = Signal(object)  # a RowMove before and after rows move (Qt's item-model protocol: the table models)

    def __init__(self, profile: Profile | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.profile = profile or Profile()
        self.path: Path | None = None
        self.warnings: list[Problem] = []  # what the file's reader noted, typed: present words them
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(500)
        self.revision = 0  # counts every change, merged edits too
        self.merge_round = 0  # commands merge only within one round; seal() starts the next
        self._analysis: Analysis | None = None
        self._analysis_error: str | None = None
        self._stale = True
        self._batch_depth = 0
        self._pending = Pending()
        self._measurements = MeasurementTable()
        self._fit: FitResult | None = None
        self.decision = DecisionLink(self)  # the ticked plan's odds and the cheapest plan, kept current
        self.component_objectives = ComponentObjectives(self)  # what each component names, row by row
        self.colours = ComponentColours()  # each component's colour in the charts, for the document's life
        self.trace = TraceLink(self)  # the figures of the profile's trace, as they come from the background
        self.job = JobLink(self)  # the job of many ranks the profile stands for (File → Import Profile from Folder…)

    # -- reading -----------------------------------------------------------
    @property
    def unit(self) -> TimeUnit:
        return self.profile.unit

    @property
    def analysis(self) -> Analysis | None:
        """The analysis of the profile as it is now (computed on the first read after a change)."""
        if self._stale:
            self._stale = False
            try:
                # analyse() takes the last analysis' totals and scaling when the times and settings are its own.
                self._analysis, self._analysis_error = analyse(self.profile, self._analysis), None
            except ProfileError as exc:  # worded as the desktop writes numbers (a refusal's figures)
                self._analysis, self._analysis_error = None, error_text(exc, locale_numbers())
        return self._analysis

    @property
    def analysis_error(self) -> str | None:
        """Why there is no analysis (an empty or all-zero profile), or None."""
        _ = self.analysis
        return self._analysis_error

    # -- whole document ----------------------------------------------------
    def reset(
        self,
        profile: Profile,
        path: Path | None,
        warnings: Sequence[Problem] = (),
        measurements: MeasurementTable | None = None,
    ) -> None:
        """Show another profile: a new file, New, Revert. Clears undo history.

        ``measurements`` replaces the measured runs; None takes the profile's own (saved with it), or none.
        """
        if measurements is None:
            saved = profile.measurements
            measurements = MeasurementTable.of(saved) if saved is not None and saved.rows else MeasurementTable()
        self.colours = ComponentColours()
        with self.batch():
            self.profile = profile  # first, so that the runs below are set on the profile shown
            self._stale = True  # and its analysis, not the last profile's, is what a view reads from now on
            self.apply_measurements(measurements)
            self.path = path
            self.warnings = list(warnings)
            self.undo_stack.clear()
            self.undo_stack.setClean()
            self._touch(*EVERYTHING)
            self._pending.reset = self._pending.path = True

    def replace_profile(
        self,
        profile: Profile,
        text: str,
        path: Path | None = None,
        warnings: Sequence[Problem] = (),
        on_apply: Callable[[bool], None] | None = None,
    ) -> None:
        """Show another (already valid) profile as one undo step: an import. Undo brings back the document before,
        its path and warnings included. ``on_apply(forward)`` runs after every apply, for a controller's own state
        that must follow (where the document came from)."""
        old = Snapshot(self.profile, self.path, tuple(self.warnings), self.colours)
        new = Snapshot(profile, path, tuple(warnings), ComponentColours())  # as opening its file gives them
        command = commands.ReplaceProfileCommand(self, text, old, new, on_apply)
        command.forward()
        self._push(command)

    def apply_snapshot(self, state: Snapshot) -> None:
        self.colours = state.colours
        with self.batch():
            self.profile, self.path, self.warnings = state.profile, state.path, list(state.warnings)
            self._keep_runs()  # an import replaces the profile, not the runs in the window
            self._touch(*EVERYTHING)
            self._pending.reset = self._pending.path = True

    def snapshot(self) -> Profile:
        """The profile as it is now, for a writer on another thread (microseconds at 10,000 rows)."""
        return self.profile.copy()

    def set_path(self, path: Path | None) -> None:
        self.path = path
        with self.batch():
            self._pending.path = True

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Announce the analysis once for every change made inside (a paste, a delete, its undo)."""
        self._batch_depth += 1
        try:
            yield
        finally:
            self._batch_depth -= 1
            if self._batch_depth == 0 and self._pending:
                self.changed.emit(self._pending.take())

    def announce(self, *aspects: Aspect) -> None:
        """What the window computes aside changed (the trace's figures, the odds, the job): one Change of those."""
        with self.batch():
            self._pending.aspects.update(aspects)

    def subscribe(self, depends_on: Iterable[Aspect], listener: Callable[[], None]) -> None:
        """Call ``listener`` at once after every change that touched one of ``depends_on``."""
        wanted = frozenset(depends_on)
        self.changed.connect(lambda change: listener() if change.touches(wanted) else None)

    def seal(self) -> None:
        """End merging: the next change is a new undo step (a slider released, a field left)."""
        self.merge_round += 1

    def _touch(self, *aspects: Aspect) -> None:
        """The profile just changed (call before telling any view)."""
        self.revision += 1
        self._stale = True
        self._pending.aspects.update(aspects)

    def _push(self, command: QUndoCommand) -> None:
        """Record a change already applied (the command's first redo does nothing)."""
        commands.push_merging(self.undo_stack, command)

    # -- requests: validate once, apply, record ----------------------------------
    def edit_components(
        self,
        changes: Mapping[int, Component],
        text: str,
        added: Sequence[Component] = (),
        cell: tuple[int, int] | None = None,
    ) -> bool:
        """New values for rows and new rows at the end, as one undo step; False when nothing changes.

        Raises :class:`ProfileError` (its problems name row and field) and changes nothing when refused.
        ``cell`` (row, column) marks a one-cell edit, which merges with the next edit of that cell.
        """
        comps = self.profile.components
        rows = sorted(r for r, c in changes.items() if c != comps[r])
        if not rows and not added:
            return False
        old = [comps[r] for r in rows]
        new = [changes[r] for r in rows]
        end = len(comps)
        with self.batch():
            if rows:
                self.apply_component_rows(rows, new)
            if added:
                try:
                    self._check_new(end, added)
                except ProfileError:
                    if rows:
                        self.apply_component_rows(rows, old)
                    raise
                self.apply_insert(end, added)
        parts: list[commands.DocumentCommand] = []
        if rows:
            parts.append(commands.EditComponentsCommand(self, rows, old, new, text, cell if not added else None))
        if added:
            parts.append(commands.InsertComponentsCommand(self, end, added, text))
        self._push(parts[0] if len(parts) == 1 else commands.CompositeCommand(self, text, parts))
        return True

    def insert_components(self, row: int, components: Sequence[Component], text: str) -> None:
        """Insert rows at ``row``; raises :class:`ProfileError` (a name taken, a bad time) and changes nothing."""
        self._check_new(row, components)
        self.apply_insert(row, components)
        self._push(commands.InsertComponentsCommand(self, row, components, text))

    def remove_components(self, rows: Iterable[int], text: str) -> list[str]:
        """Delete rows; optimizations lose those targets (and go when none is left). Returns what happened to them."""
        chosen = sorted(set(rows))
        if not chosen:
            return []
        blocks: list[tuple[int, int]] = []  # (first row, count), top down
        for r in chosen:
            if blocks and r == blocks[-1][0] + blocks[-1][1]:
                blocks[-1] = (blocks[-1][0], blocks[-1][1] + 1)
            else:
                blocks.append((r, 1))
        comps = self.profile.components
        removed = [comps[first : first + count] for first, count in blocks]
        after, changed, dropped = self.profile.without_components({c.name for part in removed for c in part})
        command = commands.RemoveComponentsCommand(self, blocks, removed, list(self.profile.optimizations), after, text)
        command.apply()
        self._push(command)
        return [f"{name} loses targets" for name in changed] + [f"{name} removed (no targets left)" for name in dropped]

    def reorder_components(self, components: Sequence[Component], text: str) -> None:
        """The same components in another order (sort, move)."""
        old = list(self.profile.components)
        self.apply_components(components)
        self._push(commands.ReorderComponentsCommand(self, old, list(components), text))

    def set_optimizations(self, optimizations: Sequence[Optimization], text: str, merge_key: object = None) -> bool:
        """Replace the checklist; raises :class:`ProfileError` and changes nothing when refused.

        Consecutive requests with one ``merge_key`` (not None) in one merge round become one undo step.
        """
        old = list(self.profile.optimizations)
        if list(optimizations) == old:
            return False
        self.apply_optimizations(optimizations)
        new = list(self.profile.optimizations)  # as the model spells the targets
        self._push(commands.SetOptimizationsCommand(self, old, new, text, merge_key))
        return True

    def change_settings(self, text: str, merge_key: object = None, **changes: Any) -> bool:
        """Change settings fields; raises :class:`ProfileError` (a bad target, GPU list…) and changes nothing."""
        old = self.profile.settings
        new = replace(old, **changes)
        if new == old:
            return False
        self.apply_settings(new)
        self._push(commands.SetSettingsCommand(self, old, new, text, merge_key))
        return True

    def change_held(self, text: str, forward: Callable[[], None], backward: Callable[[], None]) -> None:
        """Change what the window holds beside the profile that a save keeps (a job's Plan on ranks), by its holder's
        callbacks: one undo step, and the document is modified (closing asks to save; the recovery copy follows)."""
        self.held_changed(forward)
        self._push(commands.HeldChangeCommand(self, text, forward, backward))

    def held_changed(self, apply: Callable[[], None]) -> None:
        """Raw: ``apply`` a change of what the document holds beside the profile (for the command above)."""
        with self.batch():
            apply()
            self.revision += 1
            self._pending.aspects.add(Aspect.JOB)

    def set_objectives(self, specs: Sequence[ObjectiveSpec], text: str) -> bool:
        """Replace the Objectives sheet's rows; raises :class:`ProfileError` naming ("objectives", row, field)."""
        old = self.profile.objectives
        if tuple(specs) == old:
            return False
        self.apply_objectives(specs)
        self._push(commands.SetObjectivesCommand(self, old, self.profile.objectives, text))
        return True

    def change_unit(self, unit: TimeUnit) -> bool:
        """Express every time in another unit; undo restores the exact numbers that were there."""
        if unit is self.profile.unit:
            return False
        old = (self.profile.unit, list(self.profile.components), self.profile.settings)
        self.apply_unit(unit)
        self._push(commands.SetUnitCommand(self, unit, old))
        return True

    def _check_new(self, row: int, components: Sequence[Component]) -> None:
        """New rows: each valid, their names new. O(new rows), before the table is told rows are coming."""
        problems = new_component_problems(self.profile.name_index(), row, components)
        if problems:
            raise ProfileError(problems)

    # -- raw setters, for commands only (and the requests above) ------------------
    def apply_component_rows(self, rows: list[int], components: Sequence[Component]) -> None:
        before, names = self.profile.optimizations, [self.profile.components[r].name for r in rows]
        if len(rows) == 1:
            self.profile.set_component(rows[0], components[0])
        elif all(self.profile.components[r].name == c.name for r, c in zip(rows, components, strict=True)):
            self._set_rows_one_by_one(rows, components)
        else:
            self.profile.replace_components(rows, components)  # renames, even a swap of two names
        renamed = self.profile.optimizations is not before
        for old, new in zip(names, components, strict=True):
            if old != new.name:
                self.colours.rename(old, new.name)  # a renamed component keeps its colour
        with self.batch():
            self._touch(Aspect.COMPONENTS, *([Aspect.OPTIMIZATIONS] if renamed else []))
            self._pending.changed_rows(rows)

    def _set_rows_one_by_one(self, rows: list[int], components: Sequence[Component]) -> None:
        """Each row checked on its own against the name index: a paste of times costs O(rows pasted)."""
        done: list[tuple[int, Component]] = []
        try:
            for r, comp in zip(rows, components, strict=True):
                old = self.profile.components[r]
                self.profile.set_component(r, comp)
                done.append((r, old))
        except ProfileError:
            for r, old in reversed(done):
                self.profile.set_component(r, old)
            raise

    def apply_insert(self, row: int, components: Sequence[Component]) -> None:
        move = RowMove(Move.INSERT, row, len(components))
        with self.batch():
            if row < len(self.profile.components):
                self._pending.moved_rows()
            self.rowsMoving.emit(move)
            self.profile.insert_components(row, components)
            self._touch(Aspect.COMPONENTS)
            self.rowsMoving.emit(move.finished())

    def apply_remove(self, row: int, count: int, optimizations: Sequence[Optimization]) -> None:
        """Remove rows, with the optimizations as they must be without them (targets dropped)."""
        move = RowMove(Move.REMOVE, row, count)
        with self.batch():
            self._pending.moved_rows()
            self.profile.set_optimizations_unchecked(optimizations)
            self.rowsMoving.emit(move)
            self.profile.remove_components(row, count)
            self._touch(Aspect.COMPONENTS, Aspect.OPTIMIZATIONS)
            self.rowsMoving.emit(move.finished())

    def apply_components(self, components: Sequence[Component]) -> None:
        """Same components in another order."""
        move = RowMove(Move.REORDER)
        with self.batch():
            self._pending.moved_rows()
            self.rowsMoving.emit(move)
            self.profile.set_components(components)
            self._touch(Aspect.COMPONENTS)
            self.rowsMoving.emit(move.finished())

    def apply_optimizations(self, optimizations: Sequence[Optimization]) -> None:
        self.profile.set_optimizations(optimizations)
        with self.batch():
            self._touch(Aspect.OPTIMIZATIONS)

    def apply_settings(self, settings: Settings) -> None:
        self.profile.set_settings(settings)
        with self.batch():
            self._touch(Aspect.SETTINGS)

    def apply_objectives(self, specs: Sequence[ObjectiveSpec]) -> None:
        self.profile.set_objectives(specs)
        with self.batch():
            self._touch(Aspect.OBJECTIVES)

    def apply_unit(self, unit: TimeUnit) -> None:
        self.profile.set_unit(unit)
        self._unit_changed()

    def restore_unit(self, unit: TimeUnit, components: Sequence[Component], settings: Settings) -> None:
        self.profile.unit = unit
        self.profile.set_components(components)
        self.profile.set_settings(settings)
        self._unit_changed()

    def _unit_changed(self) -> None:
        with self.batch():
            self._touch(Aspect.COMPONENTS, Aspect.SETTINGS, Aspect.OBJECTIVES)  # objectives' targets are times
            self._pending.changed_rows(None)  # every time is in the new unit
