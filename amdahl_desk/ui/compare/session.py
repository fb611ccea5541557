"""The open comparison: the after profile, the pairs made by hand, and the comparison as the plan stands now.

The document stays the only owner of the profile: adopting the measured k is one request to it
(``set_optimizations``, one undo step). The session recomputes when the window's redraw scheduler
says the components or the plan changed, so predicted figures follow every edit of the before
profile. Pairs made by hand are kept for the window's life per after file, so comparing the same
file again restores them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from ...model.adoption import Adoption, Continued, adopt_measured_k, continue_from_after
from ...model.comparison import Comparison, compare, predicted_by
from ...model.component_matching import ComparisonError
from ...model.errors import Problem, ProfileError
from ...model.names import name_key as _key
from ...model.profile import Profile
from ...present.comparison import adopted_text
from ...present.refusals import error_text
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.redraw import RedrawScheduler
from ..core.state import Aspect

# TRACE: a before profile that carries its trace promises the new total its dependencies give, once computed
DEPENDS_ON = frozenset({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS, Aspect.TRACE})


class ComparisonSession(QObject):
    """One window's comparison: nothing open, or an after profile with its pairs and the current comparison."""

    changed = Signal()  # a new comparison (or a reason there is none); also on open
    closed = Signal()

    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.after: Profile | None = None
        self.after_path: Path | None = None
        self.after_warnings: tuple[Problem, ...] = ()
        self.pairs: dict[str, str] = {}  # before name → after name, made by hand
        self.saved_pairs: dict[Path, dict[str, str]] = {}  # per after file, for the window's life
        self.comparison: Comparison | None = None
        self.error: str | None = None  # why there is no comparison now (the before profile was edited)
        self.notes: list[str] = []  # pairs dropped because a name went away
        self._revision: tuple[int, float | None] | None = None
        # A new document is a new before: the comparison belonged to the old one.
        doc.changed.connect(lambda change: self.close() if change.reset else None)
        redraws.subscribe(DEPENDS_ON, self.refresh)

    @property
    def active(self) -> bool:
        return self.after is not None

    # -- opening and closing ---------------------------------------------------------
    def open(self, after: Profile, path: Path, warnings: tuple[Problem, ...] = ()) -> Comparison:
        """Compare the document with ``after``; raises :class:`ProfileError` and changes nothing when it cannot."""
        path = path.resolve()
        pairs = {b: a for b, a in self.saved_pairs.get(path, {}).items() if self._valid(b, a, after)}
        comparison = compare(self.doc.profile, after, pairs)
        self.after, self.after_path, self.after_warnings = after, path, warnings
        self.pairs, self.notes = pairs, []
        self._set(comparison, None)
        return comparison

    def close(self) -> None:
        if self.after is None:
            return
        self.after = self.after_path = self.comparison = self.error = None
        self.pairs, self.notes, self.after_warnings = {}, [], ()
        self.closed.emit()

    def refresh(self) -> None:
        """Compare again with the document as it is now (its plan or times changed)."""
        if self.after is None or (self.doc.revision, self._promise()) == self._revision:
            return
        for before, after in list(self.pairs.items()):
            if not self._valid(before, after, self.after):
                del self.pairs[before]
                self.notes.append(f'The pair "{before}" = "{after}" was dropped: "{before}" is no longer a component.')
                self._save_pairs()
        try:
            self._set(compare(self.doc.profile, self.after, self.pairs), None)
        except ProfileError as exc:
            self._set(None, error_text(exc, locale_numbers()))

    def _promise(self) -> float | None:
        """The before plan's new total with its trace's dependencies (None: no trace to use, or still computing)."""
        answer = self.doc.trace.answer()
        return answer.new_total if answer is not None and answer.usable else None

    def _set(self, comparison: Comparison | None, error: str | None) -> None:
        promise = self._promise()
        if comparison is not None and promise is not None and any(o.enabled for o in self.doc.profile.optimizations):
            comparison = predicted_by(comparison, promise)  # the plan promised the answer, not the sum
        self.comparison, self.error = comparison, error
        self._revision = (self.doc.revision, promise)
        self.changed.emit()

    def _valid(self, before: str, after: str, after_profile: Profile) -> bool:
        return self.doc.profile.index_of(before) >= 0 and after_profile.index_of(after) >= 0

    def _save_pairs(self) -> None:
        if self.after_path is not None:
            self.saved_pairs[self.after_path] = dict(self.pairs)

    # -- pairing by hand ---------------------------------------------------------------
    def pair(self, before: str, after: str | None) -> None:
        """Pair the before component ``before`` with the after component ``after`` (None: unpair it).

        A component paired elsewhere is freed first, so a pair can be moved in one step. Raises
        :class:`ProfileError` and changes nothing when the pairing leaves nothing to compare.
        """
        if self.after is None:
            return
        row = self.doc.profile.index_of(before)
        if row < 0:
            raise ComparisonError(f'"{before}" is not a component of the before profile')
        new = {
            b: a for b, a in self.pairs.items() if _key(b) != _key(before) and (after is None or _key(a) != _key(after))
        }
        if after is not None and _key(after) != _key(before):
            new[self.doc.profile.components[row].name] = after
        if new == self.pairs:
            return
        comparison = compare(self.doc.profile, self.after, new)
        self.pairs = new
        self._save_pairs()
        self._set(comparison, None)

    def choices(self, before: str) -> list[str]:
        """After components ``before`` can be paired with: its match now, then the unmatched ones."""
        if self.after is None or self.comparison is None:
            return []
        current = next((r.after_name for r in self.comparison.rows if r.before is not None and r.name == before), None)
        free = [r.name for r in self.comparison.rows if r.before is None]
        return ([current] if current else []) + free

    def hand_paired(self, before: str) -> bool:
        return any(_key(b) == _key(before) for b in self.pairs)

    # -- acting on it ------------------------------------------------------------------
    def adopt(self) -> Adoption | None:
        """Each enabled optimization's k set to the one measured, as one undoable step; None when nothing changed."""
        if self.comparison is None:
            return None
        adoption = adopt_measured_k(self.doc.profile, self.comparison)
        adopted = [a for a in adoption.changes if a.measured is not None]
        text = "Adopt measured k" + (
            f" ({adopted_text(adopted, locale_numbers())})"
            if len(adopted) == 1
            else f" ({len(adopted)} optimizations)"
            if adopted
            else ""
        )
        return adoption if self.doc.set_optimizations(adoption.optimizations, text) else None

    def continued(self) -> Continued | None:
        """The after profile as the next working document, the plan carried as built (with its measured k)."""
        if self.after is None:
            return None
        measured = None
        if self.comparison is not None:
            measured = {a.name: a.measured for a in adopt_measured_k(self.doc.profile, self.comparison).changes}
        return continue_from_after(self.doc.profile, self.after, self.pairs, measured)

    def command_line(self, before_path: Path | None) -> str:
        """The same comparison on the command line, pairs included (``--pair``)."""
        import shlex

        before = str(before_path) if before_path else "BEFORE.xlsx"
        args = ["amdahl-desk", "compare", before, str(self.after_path or "AFTER.xlsx")]
        for b, a in self.pairs.items():
            args += ["--pair", f"{b}={a}"]
        return shlex.join(args)
