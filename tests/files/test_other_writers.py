"""Workbooks written by pandas (both engines), LibreOffice (through .ods) and Gnumeric, read right.

The fixtures are made by ``fixtures/make_writer_fixtures.py``; the numbers expected here are its data,
written out again by hand: what the reader must return whatever the writer did with it.
"""

from pathlib import Path

import pytest

from amdahl_desk.files import load_profile
from amdahl_desk.model.analysis import analyse

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = ["Kernel launch", "Forward\u00a0pass", "Backward pass", "All-reduce"]
TIMES_MS = [0.4, 42.5, 1500.25, 85.0]
SCALINGS = ["serial", "parallel", "parallel", "communication"]
GROUPS = ["host", "compute", "compute", ""]


def check_step(profile):
    assert [c.name for c in profile.components] == NAMES
    assert profile.unit.value == "ms"
    for got, want in zip((c.time for c in profile.components), TIMES_MS, strict=True):
        assert abs(got - want) <= 1e-12 * want, (got, want)
    assert [c.scaling.value for c in profile.components] == SCALINGS
    assert [c.group for c in profile.components] == GROUPS


@pytest.mark.parametrize("engine", ["openpyxl", "xlsxwriter"])
def test_pandas_to_excel_with_its_index_column(engine):
    loaded = load_profile(FIXTURES / f"pandas-{engine}.xlsx")
    profile = loaded.profile
    check_step(profile)
    assert profile.settings.target_time == 1200.0  # "1.2 s" in a ms profile
    assert tuple(profile.settings.gpu_counts) == (1, 2, 4, 8)
    assert profile.settings.parallel_fraction == 0.9
    assert [(o.name, o.target_time) for o in profile.objectives] == [("TTFT", 50.0), ("End to end", 1200.0)]
    assert [c.objectives for c in profile.components] == [("TTFT",), ("TTFT",), (), ()]
    # The optimization names "Forward pass" with a plain space; the component holds a no-break space.
    assert analyse(profile).combined.new_total == pytest.approx(sum(TIMES_MS) - 42.5 / 2)
    assert not loaded.warnings, [str(w) for w in loaded.warnings]


@pytest.mark.parametrize("writer", ["openpyxl", "libreoffice", "gnumeric"])
def test_durations_merged_cells_and_a_formula(writer):
    """[h]:mm:ss.000 and mm:ss.000 cells to the stored fraction of a day, a merged Scaling and Group over two
    rows, and =B3*2 in a duration cell (85 ms)."""
    loaded = load_profile(FIXTURES / f"step-durations-{writer}.xlsx")
    check_step(loaded.profile)
    assert loaded.profile.settings.target_time == 1200.0
    notes = [str(w) for w in loaded.warnings]
    if writer == "openpyxl":  # the only one of the three that keeps a sheet hidden when it saves
        assert len(notes) == 1 and '"Step", the first visible sheet' in notes[0] and '"Old copy"' in notes[0]
    else:
        assert not notes, notes
