"""The document owns the measured runs: one validation, one undo step, one announcement, the fit computed once."""

import math

import pytest

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.measurement_table import MeasurementTable
from amdahl_desk.model.measurements import MeasureKind, Measurement, Measurements
from amdahl_desk.ui.core.change import Change
from amdahl_desk.ui.core.document import Document
from amdahl_desk.ui.core.state import Aspect

from ..helpers import training

pytestmark = pytest.mark.gui


def runs(*pairs, **fmt):
    return MeasurementTable(tuple(Measurement(float(n), float(v)) for n, v in pairs), **fmt)


@pytest.fixture
def doc(qapp):
    return Document(training())


def test_a_change_is_announced_once_with_its_aspect_and_leaves_the_profile_analysis_alone(doc):
    analysis = doc.analysis
    seen = []
    doc.changed.connect(seen.append)
    assert doc.edit_measurements(runs((1, 100), (2, 60), (4, 40)), "Paste")
    assert seen == [Change(frozenset({Aspect.MEASUREMENTS}))]
    assert doc.analysis is analysis  # not analysed again
    assert doc.fit.amdahl is not None and doc.fit is doc.fit  # computed once per change
    assert doc.undo_stack.undoText() == "Paste"
    doc.undo_stack.undo()
    assert doc.measurements == MeasurementTable() and len(doc.fit.measurements) == 0


def test_refused_values_change_nothing_and_name_row_and_field(doc):
    doc.edit_measurements(runs((1, 100)), "Type")
    with pytest.raises(ProfileError) as err:
        doc.edit_measurements(runs((1, 100), (-2, 60), (4, 0)), "Paste")
    assert [(p.row, p.field) for p in err.value.problems] == [(1, "n"), (2, "value")]
    assert "-2 is not a count" in str(err.value) and "0 is not a time" in str(err.value)
    assert doc.measurements == runs((1, 100)) and doc.undo_stack.count() == 1


def test_empty_cells_wait_and_equal_each_other(doc):
    waiting = MeasurementTable((Measurement(8.0, math.nan), Measurement(math.nan, 5.0)))
    assert waiting == MeasurementTable((Measurement(8.0, float("nan")), Measurement(float("nan"), 5.0)))
    assert waiting.waiting() == [(0, "value"), (1, "n")] and waiting.problems() == []
    assert doc.edit_measurements(waiting, "Type")
    assert not doc.edit_measurements(MeasurementTable((Measurement(8.0, math.nan), Measurement(math.nan, 5.0))), "x")
    assert len(doc.measured_runs()) == 0


def test_the_files_layer_round_trip_and_reset(doc):
    m = Measurements.of([(1, 64.9), (18, 995.9), (36, 1652.4)], MeasureKind.THROUGHPUT, "req/s", "Users")
    doc.edit_measurements(MeasurementTable.of(m), "Open")
    assert doc.measured_runs() == m
    profile = doc.profile
    doc.reset(profile, None)  # a profile without runs keeps the ones in the window
    assert doc.measured_runs() == m and doc.undo_stack.count() == 0
    doc.reset(profile, None, measurements=MeasurementTable())
    assert doc.measurements == MeasurementTable()
