"""A refused value of a profile is a typed fact (which rule, with which values) the model returns; its words are
present's, the same wherever the refusal is read."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from amdahl_desk.model.errors import Problem, ProfileError, Refusal
from amdahl_desk.model.load_settings import MAX_SERVERS
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.profile_rules import component_problems, optimization_problems
from amdahl_desk.model.profile_values import settings_problems
from amdahl_desk.model.traces.result import ImportNote, NoteKind
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.refusals import refusal_text

COMPONENTS = [Component("Attention", 40.0), Component("MLP", 60.0)]


def only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, problems
    return problems[0]


def test_a_refused_component_says_which_rule_and_where_and_is_worded_by_present():
    p = only(component_problems([Component("Attention", 40.0), Component("attention", 1.0)]))
    assert (p.why, p.table, p.row, p.field, p.values) == (Refusal.DUPLICATE_NAME, "components", 1, "name",
                                                          ("attention", "row 1"))  # fmt: skip
    assert p.text == ""  # no words in the record: present gives them
    assert p.what == '"attention" is a duplicate name (also in row 1); component names must be unique'
    assert str(p.located("Components!A3")) == f"Components!A3: {p.what}"


def test_a_time_range_that_does_not_hold_its_time_carries_the_numbers_not_their_text():
    p = only(component_problems([Component("Attention", 1234.0, time_low=1500.0)]))
    assert p.why is Refusal.TIME_RANGE_OUTSIDE and p.field == "time_low"
    assert p.values == ("low", "Attention", 1500.0, 1234.0)
    assert p.what == (
        'the low time of "Attention", 1,500, is above its measured time 1,234; a time range must hold the time '
        "(low ≤ time ≤ high)"
    )


def test_an_optimization_refused_for_each_rule_it_breaks():
    opts = [Optimization("Fuse", ("Attention", "Conv", "Pool"), 2.0, enabled=True, speedup_low=3.0, effort=-1.0)]
    problems = optimization_problems(opts, COMPONENTS)
    assert [(p.why, p.field) for p in problems] == [
        (Refusal.K_RANGE_OUTSIDE, "speedup_low"),
        (Refusal.EFFORT, "effort"),
        (Refusal.NOT_COMPONENTS, "targets"),
    ]
    assert [p.what for p in problems] == [
        'the low k of "Fuse", 3×, is above its likely k 2×; expected low ≤ likely ≤ high',
        'the effort of "Fuse" must be a number of engineer-days of 0 or more',
        '"Conv", "Pool" are not components; expected names from the Components table',
    ]


def test_settings_are_refused_by_field_with_one_sentence_each():
    problems = settings_problems(Settings(target_time=-1.0, gpu_counts=(), ring_bandwidth=0.0, servers=0))
    assert {p.field: p.why for p in problems} == {
        "target_time": Refusal.OUT_OF_RANGE,
        "gpu_counts": Refusal.NO_GPU_COUNTS,
        "ring_bandwidth": Refusal.OUT_OF_RANGE,
        "servers": Refusal.OUT_OF_RANGE,
    }
    assert {p.field: p.what for p in problems} == {
        "target_time": "the target time must be a number greater than 0",
        "gpu_counts": "at least one GPU count is needed",
        "ring_bandwidth": "the bandwidth must be greater than 0",
        "servers": f"the number of servers must be a whole number from 1 to {MAX_SERVERS:,}",
    }


# One example of each rule's values: a rule added without its sentence (or without an example here) fails.
EXAMPLES: dict[Refusal, tuple[str, tuple[object, ...]]] = {
    Refusal.NO_NAME: ("name", ()),
    Refusal.DUPLICATE_NAME: ("name", ("MLP", "row 2")),
    Refusal.NOT_A_NUMBER: ("time", ("time",)),
    Refusal.RANGE_END_UNREADABLE: ("speedup_low", ("k", "low", None)),
    Refusal.TIME_RANGE_OUTSIDE: ("time_high", ("high", "MLP", 2.0, 3.0)),
    Refusal.K_RANGE_OUTSIDE: ("speedup_high", ("high", "Fuse", 1.5, 2.0)),
    Refusal.EFFORT: ("effort", ("Fuse",)),
    Refusal.CONFIDENCE: ("confidence", ("Fuse",)),
    Refusal.BUILT_AND_TICKED: ("enabled", ("Fuse",)),
    Refusal.NO_TARGETS: ("targets", ("Fuse",)),
    Refusal.NOT_COMPONENTS: ("targets", ("Conv",)),
    Refusal.OUT_OF_RANGE: ("servers", (MAX_SERVERS,)),
    Refusal.TOO_LARGE: ("gpu_counts", (10_000_000,)),
    Refusal.NO_GPU_COUNTS: ("gpu_counts", ()),
    Refusal.UNNAMED_LOAD_OBJECTIVE: ("load_objective", ("End to end",)),
    Refusal.OBJECTIVE_NOT_LISTED: ("objectives", ("TTFT",)),
    Refusal.OBJECTIVE_EMPTY: ("name", ("Throughput",)),
    Refusal.LOAD_OBJECTIVE_UNKNOWN: ("load_objective", ("TPOT", ("End to end", "TTFT"))),
    Refusal.LOAD_OBJECTIVE_TAKES_NO_TIME: ("load_objective", ("TTFT",)),
    Refusal.TOO_MANY_RUNS: ("", (100_001, 100_000)),
    Refusal.NOT_A_COUNT: ("n", (-1234.5,)),
    Refusal.NOT_A_MEASURE: ("value", (0.0, "throughput")),
    Refusal.END_TO_END_TARGET: ("target_time", (600.0,)),
    Refusal.TOTAL_LINE_GAP: ("time", (1106.0, 1100.5, TimeUnit.MS, 0.005, True)),
    Refusal.TOTAL_LINE_READ: ("name", ("All stages", None, 1100.5, TimeUnit.MS, 0.005)),
    Refusal.FORMULA_RECALCULATED: ("", ("Data!B1*2", 150.0, 999.0)),
    Refusal.LOW_BANDWIDTH: ("ring_bandwidth", (5000.0,)),
    Refusal.TRACE_NOTE: ("", (ImportNote(NoteKind.THREADS_SUMMED, {"profiles": 3}),)),
    Refusal.NAME_NOT_ONE_LINE: ("name", ("Decode\nstep", "\n")),
    Refusal.NAME_MADE_ONE_LINE: ("name", ("Decode\x07", "\x07", "Decode\ufffd")),
    Refusal.SAME_COLUMN_TWICE: ("time", ("time", "Components!B1")),
    Refusal.UNKNOWN_SETTING: ("", ("Colour", ("Target time", "Time unit"))),
    Refusal.COMPONENTS_SHEET_CHOSEN: ("", ("Data", ("Old", "Older"))),
    Refusal.NO_COMPLETE_EVENTS: ("", (12_345,)),
    Refusal.TRACE_TRUNCATED: ("", (1_234,)),
    Refusal.TOO_DEEP: ("", (10_000, True, "an event")),
    Refusal.NEGATIVE_DURATION: ("", ("aten::mm", -2.5)),
    Refusal.TOO_MANY_PARTS: ("", (20_001, 10_000)),
    Refusal.PART_INFLATES: ("", ("xl/worksheets/sheet1.xml", 1234.4, 1000)),
    Refusal.CSV_TOO_LARGE: ("", (1536.4, 1024)),
    Refusal.CSV_TOO_WIDE: ("", (3, 20_000, 16_384)),
    Refusal.SHEET_TOO_LONG: ("", ("Components", 2_000_000, 1_000_000)),
    Refusal.RANKS_CELL: ("", ("headers", ("Rank", "Host"))),
    Refusal.AMBIGUOUS_NUMBER: ("time", ("1.500", 1500.0, 1.5, ".", False)),
}


def test_every_rule_has_its_words():
    assert set(EXAMPLES) == set(Refusal)
    worded = {
        why: refusal_text(Problem.of(why, "t", None, field, *values)) for why, (field, values) in EXAMPLES.items()
    }
    assert worded[Refusal.RANGE_END_UNREADABLE] == "the low k: the speedup is not a number"
    assert worded[Refusal.TOO_LARGE] == "GPU counts must be at most 10,000,000"
    assert (
        worded[Refusal.UNNAMED_LOAD_OBJECTIVE] == 'the load objective needs a name; "End to end" holds every component'
    )
    assert worded[Refusal.LOAD_OBJECTIVE_UNKNOWN] == (
        '"TPOT" is not an objective of this profile; expected one of "End to end", "TTFT"'
    )
    assert worded[Refusal.OBJECTIVE_NOT_LISTED] == (
        '"TTFT" is not in the Objectives sheet; it is analysed without a target of its own'
    )
    assert worded[Refusal.OBJECTIVE_EMPTY] == (
        'no component belongs to "Throughput"; name it in the Objectives column of the components it holds'
    )
    assert worded[Refusal.LOAD_OBJECTIVE_TAKES_NO_TIME] == (
        '"TTFT" takes no time, so it cannot be a service time; choose another load objective'
    )
    assert worded[Refusal.TRACE_NOTE] == "3 profiles (threads) are summed: the times are CPU time, not wall time"
    assert worded[Refusal.NAME_NOT_ONE_LINE] == (
        'the name "Decode step" holds a line break; a name is one line of visible text'
    )
    assert worded[Refusal.NAME_MADE_ONE_LINE] == (
        'the name "Decode\ufffd" holds the control character U+0007; a name is one line of visible text: read as '
        '"Decode\ufffd"'
    )
    assert worded[Refusal.SAME_COLUMN_TWICE] == (
        "two time columns with the same header and the same values; reading Components!B1"
    )
    assert worded[Refusal.UNKNOWN_SETTING] == (
        'unknown setting "Colour" ignored; the known settings are Target time, Time unit'
    )
    assert worded[Refusal.COMPONENTS_SHEET_CHOSEN] == (
        'no sheet is named Components; the components were read from "Data", the first visible sheet (hidden, so '
        'skipped: "Old", "Older"); name the sheet Components to choose it'
    )
    assert worded[Refusal.NO_COMPLETE_EVENTS].startswith('the trace has no complete events (ph "X") among its 12,345')
    assert worded[Refusal.TRACE_TRUNCATED] == (
        "the file ends inside the trace's events (after event 1,234): it is truncated"
    )
    assert worded[Refusal.TOO_DEEP].startswith("JSON nested more than 10,000 levels deep in an event: too deep")
    assert worded[Refusal.NEGATIVE_DURATION].startswith('complete event "aten::mm" lasts -2.5 µs; expected')
    assert worded[Refusal.TOO_MANY_PARTS].startswith("the workbook holds 20,001 parts, more than the 10,000 a")
    assert worded[Refusal.PART_INFLATES].startswith("part xl/worksheets/sheet1.xml inflates 1,234× (limit 1000×)")
    assert worded[Refusal.CSV_TOO_LARGE] == "the file is 1,536 MiB, past the 1024 MiB limit for a CSV file"
    assert worded[Refusal.CSV_TOO_WIDE].startswith("row 3 has 20,000 fields, more than the 16,384 columns")
    assert worded[Refusal.SHEET_TOO_LONG].startswith("sheet Components has 2,000,000 rows, more than the 1,000,000")
    assert worded[Refusal.RANKS_CELL] == "expected the headers Rank, Host; the job is not restored"
    assert worded[Refusal.AMBIGUOUS_NUMBER].startswith(
        '"1.500" could be 1500 (point grouping thousands) or 1.5 (decimal point), and no other cell'
    )
    for why, text in worded.items():  # a sentence, not the model's bare record
        field, values = EXAMPLES[why]
        assert len(text.split()) >= 5 and f"{why.value} {values}" not in text, (why, text)


@pytest.mark.parametrize(
    "field",
    ["target_time", "baseline_gpus", "gpu_counts", "parallel_fraction", "ring_latency", "ring_message_bytes",
     "ring_bandwidth", "arrival_rate", "gpu_price_per_hour", "watts_per_gpu", "energy_price_per_kwh",
     "plan_confidence"],
)  # fmt: skip
def test_each_setting_out_of_its_range_is_named_in_its_sentence(field):
    text = refusal_text(Problem.of(Refusal.OUT_OF_RANGE, "settings", None, field))
    words = {
        "ring_message_bytes": "message size",
        "watts_per_gpu": "power per GPU",
        "gpu_counts": "GPU counts",
        "baseline_gpus": "baseline GPU count",
        "ring_bandwidth": "the bandwidth",
    }
    assert words.get(field, field.replace("_", " ").replace("gpu", "GPU").replace("kwh", "kWh")) in text


def test_an_error_reads_the_same_after_crossing_a_process_pool():
    """A job's ranks are read in worker processes: their refusals come back as records and read as words here."""
    error = ProfileError(component_problems([Component("", 1.0)]), source="rank3.json")
    back = pickle.loads(pickle.dumps(error))
    assert str(back) == str(error) == "rank3.json: the component has no name; every component needs a unique name"
    with ProcessPoolExecutor(1) as pool:  # the record is made in the worker, worded here
        problem = pool.submit(component_problems, [Component("", 1.0)]).result()[0]
    assert problem.why is Refusal.NO_NAME and problem.text == ""
    assert problem.what == "the component has no name; every component needs a unique name"


def test_a_profile_edit_is_refused_with_the_row_it_was_typed_in():
    profile = Profile(list(COMPONENTS), [], Settings())
    with pytest.raises(ProfileError) as refused:
        profile.set_component(1, Component("Attention", 5.0))
    (p,) = refused.value.problems
    assert (p.why, p.row, p.values) == (Refusal.DUPLICATE_NAME, 1, ("Attention", "row 1"))


def test_every_setting_the_model_can_refuse_has_its_sentence():
    """Each field ``settings_problems`` refuses, all at once, worded: a field added without a sentence fails here."""
    bad = Settings(
        target_time=0.0,
        baseline_gpus=0,
        gpu_counts=(0,),
        parallel_fraction=2.0,
        ring_latency=-1.0,
        ring_message_bytes=-1.0,
        ring_bandwidth=0.0,
        arrival_rate=0.0,
        servers=0,
        load_objective=" ",
        gpu_price_per_hour=-1.0,
        watts_per_gpu=-1.0,
        energy_price_per_kwh=-1.0,
        plan_confidence=0.0,
    )
    problems = settings_problems(bad)
    assert len(problems) == 14
    assert all(p.why is not None and p.what.startswith(("the ", "GPU ")) for p in problems), problems
    limits = settings_problems(Settings(baseline_gpus=10**8, gpu_counts=(10**8,)))
    assert [p.what for p in limits] == [
        "the baseline GPU count must be at most 10,000,000",
        "GPU counts must be at most 10,000,000",
    ]
