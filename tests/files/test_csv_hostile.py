"""Hostile CSV tables: deep nesting, long runs and random damage are read or refused with the core's error,
in bounded time, with a message of bounded length."""

import os
import random
import time

import pytest

from amdahl_desk.files import load_profile, read_measurements
from amdahl_desk.model.errors import ProfileError

DEEP = 100_000
HOSTILE = {
    "parentheses around a header's unit": f"Component,Time {'(' * DEEP}ms{')' * DEEP}\na,1\n",
    "brackets before a header's unit": f"Component,Time {'[' * DEEP}ms\na,1\n",
    "parentheses around a time": f"Component,Time (ms)\na,{'(' * 60_000}1{')' * 60_000}\n",
    "a number grouped 100,000 times": f"Component,Time (ms)\na,{'1,' * 60_000}5\n",
    "a run of spaces in a time": f"Component,Time (ms)\na,1{' ' * DEEP}x\n",
    "a run of spaces behind an apostrophe": "Component,Time (ms)\na,'1" + " " * DEEP + "x y\n",
    "apostrophes": f"Component,Time (ms)\na,{chr(39) * DEEP}42\n",
    "a unit 100,000 letters long": f"Component,Time (ms)\na,1 {'m' * DEEP}\n",
    "per, nested": f"Component,Time (ms{'/x' * 60_000})\na,1\n",
    "quotes": "Component,Time (ms)\n" + '"' * (2 * DEEP) + ",1\n",
    "quotes inside quotes": 'Component,Time (ms)\n"' + '""' * 60_000 + '",1\n',
    "100,000 columns": "Component,Time (ms)," + ",".join(["Notes"] * DEEP) + "\na,1\n",
    "objectives separated 100,000 times": f"Component,Time (ms),Objectives\na,1,{';' * DEEP}x\n",
    "a name 100,000 characters long": f"Component,Time (ms)\n{'n' * DEEP},1\n",
}


def held(read, path):
    start = time.monotonic()
    try:
        read(path)
    except ProfileError as exc:
        assert str(exc).startswith(path.name + ": "), str(exc)[:200]
        assert len(str(exc)) < 2_000, str(exc)[:200]
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_tables(tmp_path, text):
    path = tmp_path / "hostile.csv"
    path.write_text(text, encoding="utf-8")
    held(load_profile, path)
    runs = tmp_path / "runs.csv"
    runs.write_text(text.replace("Component", "GPUs", 1), encoding="utf-8")
    held(read_measurements, runs)


VALID = (
    "Component,Time (ms),Scaling,Group,Notes,Objectives\r\n"
    'Data loading,"1,250.5",serial,io,"from disk, cold",TTFT\r\n'
    "Forward pass,'42.5 ms,parallel,gpu,,TTFT; End to end\r\n"
    "All-reduce,85,communication,gpu,=SUM(A1),\r\n"
    'Total,"1,378",,,,\r\n'
)
JUNK = ['"', "'", ",", ";", "\t", "\n", "(", ")", "[", "]", "\u00a0", "1", ".", "ms", "min", "\x00", "\ufffd"]


def damage(text: str, rng: random.Random) -> str:
    kind = rng.choice(["flip", "truncate", "insert", "repeat"])
    if kind == "truncate":
        return text[: rng.randrange(len(text))]
    if kind == "repeat":  # a run of one character, deep: nesting or a field far too long
        at = rng.randrange(len(text))
        return text[:at] + rng.choice(JUNK) * rng.choice([10, 1_000, 50_000]) + text[at:]
    chars = list(text)
    for _ in range(rng.randint(1, 12)):
        at = rng.randrange(len(chars))
        if kind == "flip":
            chars[at] = rng.choice(JUNK)
        else:
            chars.insert(at, rng.choice(JUNK))
    return "".join(chars)


def test_damaged_tables_only_ever_raise_profile_error(tmp_path):
    """Seeded random damage to a valid table: it loads or is refused; nothing else escapes.

    A longer run: AMDAHL_FUZZ_ITERATIONS=20000 ./run.sh test -k damaged_tables (seed printed on failure).
    """
    seed = int(os.environ.get("AMDAHL_FUZZ_SEED", "20261201"))
    rng = random.Random(seed)
    outcomes = {"loaded": 0, "refused": 0}
    for i in range(int(os.environ.get("AMDAHL_FUZZ_ITERATIONS", "300"))):
        path = tmp_path / f"fuzz-{i}.csv"
        path.write_bytes(damage(VALID, rng).encode("utf-8", "surrogatepass"))
        start = time.monotonic()
        try:
            load_profile(path)
            outcomes["loaded"] += 1
        except ProfileError as exc:
            assert str(exc).startswith(f"fuzz-{i}.csv: "), str(exc)[:200]
            outcomes["refused"] += 1
        except Exception as exc:  # noqa: BLE001 - this is what the test looks for
            pytest.fail(f"seed {seed}, iteration {i}: {type(exc).__name__}: {exc}")
        assert time.monotonic() - start < 10, f"seed {seed}, iteration {i} took too long"
        path.unlink()
    assert outcomes["loaded"] > 10 and outcomes["refused"] > 10, outcomes
