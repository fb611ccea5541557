"""The document as the one owner of changes: one validation, one command, one announcement per change."""

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.ui.core.change import Change, Move
from amdahl_desk.ui.core.document import Document
from amdahl_desk.ui.core.state import Aspect
from amdahl_desk.ui.profile.component_table import NAME, TIME, ComponentTableModel
from amdahl_desk.ui.profile.optimization_table import OptimizationTableModel

pytestmark = pytest.mark.gui


@pytest.fixture
def doc(qapp):
    return Document(
        Profile(
            [Component("a", 10), Component("b", 20), Component("c", 70)],
            [Optimization("o", ("a",), 2), Optimization("p", ("c",), 4, enabled=False)],
        )
    )


def announcements(doc):
    seen = []
    doc.changed.connect(lambda _aspects: seen.append(doc.analysis))
    return seen


def test_a_paste_that_edits_and_adds_rows_is_analysed_once_and_undone_once(doc):
    table = ComponentTableModel(doc)
    seen = announcements(doc)
    assert table.set_cells([(1, TIME, "30"), (3, NAME, "d"), (3, TIME, "40")], "Paste")
    assert len(seen) == 1 and seen[0].baseline_total == 150
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Paste"
    doc.undo_stack.undo()
    assert len(seen) == 2 and seen[1].baseline_total == 100
    assert [c.name for c in doc.profile.components] == ["a", "b", "c"]


def test_deleting_rows_and_undoing_it_announce_once_each(doc):
    seen = announcements(doc)
    notes = doc.remove_components([0, 2], "Delete 2 components")
    assert notes == ["o removed (no targets left)", "p removed (no targets left)"]
    assert len(seen) == 1 and [c.name for c in doc.profile.components] == ["b"]
    doc.undo_stack.undo()
    assert len(seen) == 2
    assert [c.name for c in doc.profile.components] == ["a", "b", "c"]
    assert [o.name for o in doc.profile.optimizations] == ["o", "p"]


def records(doc):
    seen = []
    doc.changed.connect(seen.append)
    return seen


def test_one_change_record_says_what_changed_rows_and_all(doc):
    seen = records(doc)
    doc.edit_components({2: Component("c", 60), 0: Component("a", 5)}, "Paste")
    assert seen == [Change(frozenset({Aspect.COMPONENTS}), rows=(0, 2))]
    doc.set_optimizations([Optimization("o", ("a",), 3)], "k")
    assert seen[-1] == Change(frozenset({Aspect.OPTIMIZATIONS}))
    doc.change_unit(TimeUnit.S)  # every time is in another unit: every row
    assert seen[-1].rows is None and seen[-1] & {Aspect.SETTINGS, Aspect.OBJECTIVES} == {
        Aspect.SETTINGS,
        Aspect.OBJECTIVES,
    }
    doc.reset(Profile([Component("x", 1)]), None)
    assert seen[-1].reset and seen[-1].path and Aspect.MEASUREMENTS in seen[-1]
    doc.set_path(None)  # the file, and nothing else
    assert seen[-1] == Change(path=True)


def test_rows_changed_then_moved_in_one_batch_name_no_row_numbers_that_no_longer_hold(doc):
    seen = records(doc)
    with doc.batch():
        doc.apply_component_rows([2], [Component("c", 1)])
        doc.apply_insert(0, [Component("z", 1)])  # row 2 is now row 3
    assert seen == [Change(frozenset({Aspect.COMPONENTS}), rows=None)]
    with doc.batch():
        doc.apply_component_rows([2], [Component("b", 2)])  # z, a, b, c: b's row
        doc.apply_insert(4, [Component("y", 1)])  # appended: row 2 is still row 2
    assert seen[-1].rows == (2,)


def test_rows_moving_comes_before_and_after_the_rows_move_and_the_change_after_them(doc):
    events = []
    doc.rowsMoving.connect(lambda m: events.append((m.move, m.first, m.count, m.done, len(doc.profile.components))))
    doc.changed.connect(lambda c: events.append(("changed", len(doc.profile.components))))
    doc.remove_components([1], "Delete")
    assert events == [(Move.REMOVE, 1, 1, False, 3), (Move.REMOVE, 1, 1, True, 2), ("changed", 2)]


def test_a_refused_edit_changes_nothing_and_says_where(doc):
    with pytest.raises(ProfileError) as info:
        doc.edit_components({1: Component("a", 20)}, "Rename")
    assert info.value.problems[0].row == 1 and info.value.problems[0].field == "name"
    with pytest.raises(ProfileError) as info:
        doc.edit_components({0: Component("a", 11)}, "Paste", added=[Component("B", 1)])
    assert info.value.problems[0].row == 3 and "duplicate" in info.value.problems[0].what
    assert doc.profile.components[0].time == 10 and len(doc.profile.components) == 3
    assert doc.undo_stack.count() == 0


def test_typing_back_to_the_start_leaves_no_undo_step(doc):
    table = ComponentTableModel(doc)
    for value in ("12", "13", "10"):
        assert table.setData(table.index(0, TIME), value)
    assert doc.profile.components[0].time == 10
    assert doc.undo_stack.count() == 0 and doc.undo_stack.isClean()


def test_merged_k_steps_name_the_final_value_and_a_seal_ends_the_merge(doc):
    for k in (3, 5, 250):
        doc.set_optimizations([Optimization("o", ("a",), k)], f"Set k of o to {k}×", merge_key=("k", 0))
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Set k of o to 250×"
    doc.seal()
    doc.set_optimizations([Optimization("o", ("a",), 7)], "Set k of o to 7×", merge_key=("k", 0))
    assert doc.undo_stack.count() == 2
    doc.set_optimizations([Optimization("o", ("a",), 250)], "Set k of o to 250×", merge_key=("k", 0))
    assert doc.undo_stack.count() == 1  # the second drag came back to where it began: gone


def live_commands():
    import gc

    from amdahl_desk.ui.core.commands import DocumentCommand

    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, DocumentCommand))


def test_merged_edits_leave_no_command_behind(doc):
    """Each keystroke that merges into the step before must be freed: Qt deleted it inside push, and PySide
    then kept its wrapper (and the rows it held) for the life of the window: memory lost at every edit."""
    table = ComponentTableModel(doc)
    before = live_commands()
    for i in range(200):
        assert table.setData(table.index(0, TIME), str(11 + i))
    for i in range(200):
        doc.set_optimizations([Optimization("o", ("a",), 2 + i)], f"Set k of o to {2 + i}×", merge_key=("k", 0))
    assert doc.undo_stack.count() == 2
    assert live_commands() - before <= 2
    undo_texts = []
    doc.undo_stack.undoTextChanged.connect(undo_texts.append)
    assert table.setData(table.index(1, TIME), "21") and table.setData(table.index(1, TIME), "22")
    assert undo_texts[-1] == doc.undo_stack.undoText() and doc.undo_stack.count() == 3
    doc.undo_stack.undo()  # one step takes the merged edits back at once
    assert doc.profile.components[1].time == 20
    doc.undo_stack.redo()
    assert doc.profile.components[1].time == 22


def test_edits_merge_only_after_the_saved_state_and_without_a_redo_side(doc):
    table = ComponentTableModel(doc)
    assert table.setData(table.index(0, TIME), "11")
    doc.undo_stack.setClean()
    assert table.setData(table.index(0, TIME), "12")
    assert doc.undo_stack.count() == 2 and not doc.undo_stack.isClean()  # saved 11 stays a step of its own
    doc.undo_stack.undo()
    assert doc.undo_stack.isClean() and doc.profile.components[0].time == 11
    assert table.setData(table.index(0, TIME), "13")  # the redo side (12) goes; 13 is its own step
    assert doc.undo_stack.count() == 2 and doc.undo_stack.canRedo() is False


def test_the_analysis_is_current_when_views_hear_of_a_change(doc):
    """Issue 8 item 13: the checklist emptied, then one added — views read the new analysis, not the old one."""
    opts = OptimizationTableModel(doc)
    doc.set_optimizations([], "Remove all")
    read = []
    opts.modelReset.connect(lambda: read.append(opts.data(opts.index(0, 4))))
    doc.set_optimizations([Optimization("n", ("b",), 2)], "Add")
    assert read == ["1.11×"]


def test_ticking_a_checkbox_makes_its_row_current(checklist):
    panel, model = checklist.panel, checklist.model
    panel.select_row(0)
    model.setData(model.index(2, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert panel.current_row() == 2 and panel.slider.isEnabled()


def test_no_trial_copies_or_commands_outside_core():
    """Views ask the document; they never copy its profile or make undo commands (read as code, not as text)."""
    import ast
    import pathlib

    import amdahl_desk.ui as ui

    root = pathlib.Path(ui.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        if path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                # copy.copy(doc.profile), deepcopy(...), doc.profile.copy(); not an array's .copy()
                receiver = ast.unparse(f.value) if isinstance(f, ast.Attribute) else ""
                copied = name == "copy" and (receiver == "copy" or "profile" in receiver.lower() or not receiver)
                if name in ("deepcopy", "push") or copied:
                    found.append(f"{where}: {ast.unparse(node)}")
                if name.endswith("Command"):
                    found.append(f"{where}: {ast.unparse(node)}")
            elif isinstance(node, ast.ClassDef):
                if any(ast.unparse(b).endswith(("QUndoCommand", "DocumentCommand")) for b in node.bases):
                    found.append(f"{where}: class {node.name}")
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("core.commands"):
                found.append(f"{where}: imports the commands")
    assert found == []
