"""A file's notes are typed: the reader records what it found (a total line's gap, a formula's saved value, a
bandwidth without its unit) with its figures, and present words them once — in the files' format for the command
line and the workbook, in the desktop's separators for the window. A name the file holds is quoted as typed."""

import pytest
import xlsxwriter

from amdahl_desk.files import load_profile
from amdahl_desk.model.errors import Problem, ProfileError, Refusal
from amdahl_desk.present.numbers import POINT, Numbers
from amdahl_desk.present.refusals import error_text, problem_text, refusal_text

from ..files.test_formulas import unflag, xlsxwriter_book

GERMAN = Numbers(",", ".")


def _only_note(path):
    [note] = load_profile(path).warnings
    return note


def test_a_total_lines_gap_is_worded_with_the_readers_separators(tmp_path):
    path = tmp_path / "gap.csv"
    path.write_text("Component,Time (ms)\nDecode 2.5,600\nPrefill,500.5\nTotal,1106\n", encoding="utf-8")
    note = _only_note(path)
    assert note.why is Refusal.TOTAL_LINE_GAP and note.where == "row 4, column 2"
    # 1,106 against 600 + 500.5 = 1,100.5 (every digit, as the cells hold it): a gap of 5.5 ms, 0.4998% of the sum,
    # inside the 0.5% taken as rounding
    share = f"{5.5 / 1100.5 * 100:.2f}%"
    assert (
        problem_text(note, POINT)
        == str(note)
        == (
            "row 4, column 2: the total line says 1,106 ms but the components add up to 1,100.5 ms: a gap of 5.5 ms "
            f"({share}), within the 0.5% taken as rounding; using the components' sum"
        )
    )
    assert problem_text(note, GERMAN) == (
        "row 4, column 2: the total line says 1.106 ms but the components add up to 1.100,5 ms: a gap of 5,5 ms "
        f"({share.replace('.', ',')}), within the 0,5% taken as rounding; using the components' sum"
    )


def test_a_row_read_as_the_total_keeps_its_name_as_typed(tmp_path):
    path = tmp_path / "sum.csv"
    path.write_text("Component,Time (ms)\na,600\nb,500\nAll 2.5 stages,1102.5\n", encoding="utf-8")
    note = _only_note(path)
    assert note.why is Refusal.TOTAL_LINE_READ
    german = problem_text(note, GERMAN)
    assert german.startswith('row 4, column 1: "All 2.5 stages" was read as the total line (its time, 1.102,5 ms,')
    # 2.5 ms over the sum of 1,100: 0.23%, inside the 0.5% taken as rounding
    assert "within 0,5% of the rows above's sum, 1.100 ms: a gap of 2,5 ms (0,23%)" in german
    assert problem_text(note, POINT) == str(note) and "1,102.5 ms" in str(note) and "(0.23%)" in str(note)


def test_a_formulas_stale_saved_value_is_worded_in_either_format(tmp_path):
    xlsxwriter_book(tmp_path / "s.xlsx", "=Data!B1*2", value=1234.5)
    unflag(tmp_path / "s.xlsx")
    note = _only_note(tmp_path / "s.xlsx")
    assert note.why is Refusal.FORMULA_RECALCULATED and note.values[1:] == (150, 1234.5)
    assert "gives 150 but the workbook saved 1,234.5 (" in str(note)
    assert "gives 150 but the workbook saved 1.234,5 (" in problem_text(note, GERMAN)


@pytest.mark.parametrize(("numbers", "shown"), [(POINT, "5,000.5"), (GERMAN, "5.000,5")])
def test_a_bandwidth_without_a_unit_is_worded_in_either_format(tmp_path, numbers, shown):
    path = tmp_path / "b.xlsx"
    book = xlsxwriter.Workbook(path)
    comps = book.add_worksheet("Components")
    for r, row in enumerate([("Component", "Time (ms)"), ("a", 100), ("b", 200)]):
        comps.write_row(r, 0, row)
    settings = book.add_worksheet("Settings")
    settings.write_row(0, 0, ("Setting", "Value"))
    settings.write_row(1, 0, ("Ring bandwidth", 5000.5))
    book.close()
    note = _only_note(path)
    assert note.why is Refusal.LOW_BANDWIDTH and note.where == "Settings!B2"
    assert problem_text(note, numbers) == (
        f'Settings!B2: a bandwidth of {shown} bytes/s is implausibly low; write a unit, like "100 GB/s"'
    )


def test_a_gap_carries_no_float_noise(tmp_path):
    # 1,106 − (600.1 + 500.2) is 5.7 in decimal; the floats' difference is 5.70000000000005
    path = tmp_path / "noise.csv"
    path.write_text("Component,Time (ms)\na,600.1\nb,500.2\nTotal,1106\n", encoding="utf-8")
    note = _only_note(path)
    assert "add up to 1,100.3 ms: a gap of 5.7 ms (" in str(note), str(note)
    assert "add up to 1.100,3 ms: a gap of 5,7 ms (" in problem_text(note, GERMAN)


@pytest.mark.parametrize(
    ("value", "saved", "said"),
    [
        (1.23456e-5, 1.23457e-5, "gives 0.0000123456 but the workbook saved 0.0000123457 ("),  # apart, never alike
        (2e-10, 3e-10, "gives 0.0000000002 but the workbook saved 0.0000000003 ("),
        (-0.0, 5.0, "gives 0 but the workbook saved 5 ("),  # never "-0"
    ],
)
def test_a_formulas_values_read_apart_whatever_their_size(value, saved, said):
    note = Problem("", why=Refusal.FORMULA_RECALCULATED, values=("-Data!B1", value, saved))
    assert said in refusal_text(note)


def test_a_refused_file_is_worded_in_the_desktops_numbers(tmp_path):
    """What the window says of a file it cannot open: the same problems as the command line, in its separators."""
    path = tmp_path / "low.csv"
    path.write_text("Component,Time (ms),Time low (ms)\nDecode,1500,2000\nPrefill,700,600\n", encoding="utf-8")
    with pytest.raises(ProfileError) as refused:
        load_profile(path)
    assert error_text(refused.value, POINT) == str(refused.value)
    assert error_text(refused.value, GERMAN) == (
        'low.csv: row 2, column 3: the low time of "Decode", 2.000, is above its measured time 1.500; a time range '
        "must hold the time (low ≤ time ≤ high)"
    )


def test_a_runs_refusals_figures_take_the_views_separators():
    """The measured runs' refusals are typed too: a count past the table's limit, an N that is no count."""
    from amdahl_desk.model.measurements import MAX_RUNS, too_many_runs

    too_many = too_many_runs(MAX_RUNS + 1)
    assert too_many is not None and too_many.why is Refusal.TOO_MANY_RUNS and too_many_runs(MAX_RUNS) is None
    assert refusal_text(too_many).startswith(f"{MAX_RUNS + 1:,} runs, more than the {MAX_RUNS:,} a table")
    grouped = f"{MAX_RUNS + 1:,}".replace(",", "."), f"{MAX_RUNS:,}".replace(",", ".")
    assert refusal_text(too_many, GERMAN).startswith(f"{grouped[0]} runs, more than the {grouped[1]} a table")
    not_a_count = Problem.of(Refusal.NOT_A_COUNT, "measurements", 0, "n", -1234.5)
    assert refusal_text(not_a_count, GERMAN) == "-1.234,5 is not a count; N must be a number above 0"


def _cut_trace(path):
    """The CPU-steps fixture cut in the middle of its events: refused at an event and a byte past a thousand."""
    import gzip

    from ..traces import expect

    raw = gzip.decompress((expect.FIXTURES / "torch_cpu_steps.json.gz").read_bytes())
    path.write_bytes(raw[: len(raw) // 2])
    return path


def test_a_linked_traces_refusal_takes_the_views_numbers(tmp_path):
    """The what-if says why a profile's trace cannot be used (its summary note): the reader's place, its counts as
    the view writes them (``files/traces/linked.why``)."""
    from amdahl_desk.files.traces import load_trace
    from amdahl_desk.files.traces.linked import why
    from amdahl_desk.model.traces.errors import TraceError

    with pytest.raises(TraceError) as refused:
        load_trace(_cut_trace(tmp_path / "cut.json"))
    place = refused.value.problems[0].where
    assert place.counts[-1] >= 1000
    said, german = why(refused.value), why(refused.value, GERMAN)
    assert said.startswith(f"{place}: ") and german.startswith(f"{place.text.format(*_german(place.counts))}: ")


def test_a_jobs_bad_rank_keeps_its_typed_refusal(tmp_path):
    """A job's rank read on a worker comes back with its problems, not their words: the window says the byte as the
    desktop writes it."""
    import shutil

    from amdahl_desk.files.traces.job import load_job

    from ..traces import expect

    job = tmp_path / "job"
    shutil.copytree(expect.FIXTURES / "ddp2", job)
    _cut_trace(job / "rank1.json")
    (job / "rank1.json.gz").unlink(missing_ok=True)
    with pytest.raises(ProfileError) as refused:
        load_job([str(job)], "ProfilerStep#")
    [problem] = refused.value.problems
    assert refused.value.source == "rank1.json" and problem.where.counts[-1] >= 1000
    german = problem.where.text.format(*_german(problem.where.counts))
    assert error_text(refused.value, GERMAN).startswith(f"rank1.json: {german}: ")
    assert str(refused.value).startswith(f"rank1.json: {problem.where}: ")


def _german(counts):
    return [f"{c:,}".replace(",", ".") for c in counts]


def test_a_number_read_two_ways_names_its_readings_in_the_views_numbers(tmp_path):
    """ "1,500" in a CSV's time column, with no other cell to say which: refused with both readings, as numbers a
    notebook can test and a German desktop reads as written there (1,5 is one and a half)."""
    path = tmp_path / "ambiguous.csv"
    path.write_text('Component,Time (ms)\nDecode,"1,500"\nPrefill,700\n', encoding="utf-8")
    with pytest.raises(ProfileError) as refused:
        load_profile(path)
    [problem] = refused.value.problems
    assert problem.why is Refusal.AMBIGUOUS_NUMBER and problem.values == ("1,500", 1500.0, 1.5, ",", True)
    said = error_text(refused.value, POINT)
    assert '"1,500" could be 1500 (comma grouping thousands) or 1.5 (decimal comma)' in said
    german = error_text(refused.value, GERMAN)
    assert '"1,500" could be 1500 (comma grouping thousands) or 1,5 (decimal comma)' in german
    assert "write 1500 or 1,5 without grouping" in german


def test_every_sheets_number_read_two_ways_is_typed_at_its_cell(tmp_path):
    """The same "2,500" refused the same way wherever a workbook holds it as text: an optimization's k and its
    effort, a setting, a target time; each at its cell, with both readings as numbers (a German desktop must not
    see "2.5", which it reads as twenty-five)."""
    path = tmp_path / "ambiguous.xlsx"
    with xlsxwriter.Workbook(path) as book:
        rows = {
            "Components": [["Component", "Time (ms)"], ["Decode", 1500], ["Prefill", 700]],
            "Optimizations": [["Optimization", "Targets", "Speedup", "Effort (days)"], ["Fuse", "Decode", "2,500", 3]],
            "Settings": [["Setting", "Value"], ["GPU price per hour", "2,500"], ["Target time", "2,500 ms"]],
        }
        for name, sheet_rows in rows.items():
            sheet = book.add_worksheet(name)
            for r, row in enumerate(sheet_rows):
                sheet.write_row(r, 0, row)
        book.get_worksheet_by_name("Optimizations").write_string(1, 3, "2,500")
    with pytest.raises(ProfileError) as refused:
        load_profile(path)
    places = {p.where: p for p in refused.value.problems}
    assert set(places) == {"Optimizations!C2", "Optimizations!D2", "Settings!B2", "Settings!B3"}
    for problem in places.values():
        assert problem.why is Refusal.AMBIGUOUS_NUMBER and problem.values == ("2,500", 2500.0, 2.5, ",", False)
        assert "or 2,5 (decimal comma)" in problem_text(problem, GERMAN)
        assert "or 2.5 (decimal comma)" in problem_text(problem, POINT)


@pytest.mark.parametrize("protocol", range(6))
def test_a_place_travels_whole(protocol):
    """A place pickled (a rank's refusal from a worker process, any protocol) or copied keeps its counts; a place
    that is only a name (a cell, or a str of any other kind) is shown as it is."""
    import copy
    import pickle

    from amdahl_desk.model.errors import Place
    from amdahl_desk.present.refusals import place_text

    place = Place("event {} (byte {})", (347, 86_091))
    for back in (pickle.loads(pickle.dumps(place, protocol=protocol)), copy.deepcopy(place)):
        assert type(back) is Place and back == "event 347 (byte 86,091)" and back.counts == (347, 86_091)
        assert place_text(back, GERMAN) == "event 347 (byte 86.091)"

    class Cell(str):
        pass

    assert place_text(Cell("Components!B2"), GERMAN) == "Components!B2"
