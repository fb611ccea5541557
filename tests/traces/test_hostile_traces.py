"""Hostile traces: every reader (Kineto JSON and .json.gz, Chrome's JSON array, speedscope, nsys CSV) reads
a damaged file right or refuses it naming the file and the place — deep nesting included, in bounded time."""

from __future__ import annotations

import gzip
import json
import os
import random
import resource
import time

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces import load_trace
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.traces import TraceError

from . import expect

DEEP = 200_000
FUZZ_ITERATIONS = int(os.environ.get("AMDAHL_FUZZ_ITERATIONS", "150"))


def _kineto_events() -> list[dict]:
    return [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 5, "dur": 50},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 20, "args": {"a": [1]}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 12, "dur": 3,
         "args": {"correlation": 7}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 30,
         "args": {"device": 0, "stream": 7, "correlation": 7}},
    ]  # fmt: skip


def _bases() -> dict[str, bytes]:
    events = _kineto_events()
    kineto = json.dumps({"schemaVersion": 1, "traceEvents": events, "distributedInfo": {"rank": 0}}, indent=1)
    return {
        "trace.json": kineto.encode(),
        "trace.json.gz": gzip.compress(kineto.encode(), mtime=0),
        "array.json": json.dumps(events).encode(),
        "profile.speedscope.json": (expect.FIXTURES / "pyspy.speedscope.json").read_bytes(),
        "kern_sum.csv": (expect.FIXTURES / "nsys_cuda_gpu_kern_sum.csv").read_bytes(),
    }


def _deep(rng: random.Random) -> bytes:
    opener = rng.choice([b"[", b'{"a":', b'[{"b":'])
    closer = {b"[": b"]", b'{"a":': b"}", b'[{"b":': b"}]"}[opener]
    depth = rng.choice([600, 5000, DEEP])
    return opener * depth + (b"1" if opener != b"[" else b"") + (closer * depth if rng.random() < 0.7 else b"")


def _mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    plain = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    at = rng.randrange(len(plain) + 1)
    kind = rng.choice(["deep", "flip", "cut", "insert", "delete", "repeat", "number"])
    if kind == "deep":
        out = plain[:at] + _deep(rng) + plain[at:]
    elif kind == "flip":
        out = bytearray(plain)
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(len(out))] = rng.randrange(256)
        out = bytes(out)
    elif kind == "cut":
        out = plain[:at]
    elif kind == "insert":
        out = plain[:at] + bytes(rng.choice(b'[]{}",:0123456789.-eE\\ \nabc\x00\xff') for _ in range(8)) + plain[at:]
    elif kind == "delete":
        out = plain[:at] + plain[at + rng.randint(1, 64) :]
    elif kind == "repeat":
        out = plain[:at] + plain[at : at + 200] * rng.randint(2, 50) + plain[at:]
    else:
        out = plain[:at] + rng.choice([b"1e999", b"-1", b"NaN", b'"12"', b"null", b"true", b"99999999999999999999"])
        out += plain[at + 1 :]
    if data[:2] == b"\x1f\x8b" and rng.random() < 0.8:
        out = gzip.compress(out, mtime=0)
    return kind, out


DEEP_FORMS = {
    "events": lambda: b'{"traceEvents": [' + b"[" * DEEP + b"]" * DEEP + b"]}",
    "args": lambda: (
        b'{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2, "args": '
        + b'{"a": ' * DEEP
        + b"1"
        + b"}" * DEEP
        + b"}]}"
    ),
    "header": lambda: b'{"meta": ' + b"[" * DEEP + b"]" * DEEP + b', "traceEvents": []}',
    "after the events": lambda: (
        b'{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2}], "meta": ' + b"[" * DEEP + b"]" * DEEP + b"}"
    ),
    "array": lambda: b"[" + b"[" * DEEP + b"]" * DEEP + b"]",
    "unclosed array": lambda: b"[" * DEEP,
    "object": lambda: b'{"a": ' * DEEP + b"1" + b"}" * DEEP,
    "speedscope": lambda: (
        b'{"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": '
        + b"[" * DEEP
        + b"]" * DEEP
        + b'}, "profiles": []}'
    ),
}


@pytest.mark.parametrize("gz", [False, True], ids=["json", "gzip"])
@pytest.mark.parametrize("form", sorted(DEEP_FORMS))
def test_json_nested_200000_levels_deep_is_refused_at_its_byte(tmp_path, capsys, form, gz):
    data = DEEP_FORMS[form]()
    path = tmp_path / ("deep.json.gz" if gz else "deep.json")
    path.write_bytes(gzip.compress(data) if gz else data)
    started = time.monotonic()
    with pytest.raises(TraceError) as info:
        load_trace(path).summarise()
    assert time.monotonic() - started < 5
    message = str(info.value)
    assert message.startswith(f"{path.name}: byte ") and "levels deep" in message
    at = int(message.split("byte ", 1)[1].split(":", 1)[0].replace(",", ""))
    assert data[:at].count(b"[") + data[:at].count(b"{") >= 500  # the place is where it is deep
    assert main(["import", str(path)]) == 2
    err = capsys.readouterr().err
    assert "levels deep" in err and "byte" in err and "Traceback" not in err and "unexpected" not in err
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 1024 * 1024


def test_an_nsys_cell_longer_than_the_csv_limit_names_its_line(tmp_path):
    header = "Time (%),Total Time (ns),Instances,Name\n"
    path = tmp_path / "kern_sum.csv"
    path.write_text("Processing [x] with [cuda_gpu_kern_sum]\n" + header + '50,1000,1,"' + "[" * DEEP + '"\n')
    with pytest.raises(TraceError, match=r"^kern_sum\.csv: line 3: .*field larger than field limit"):
        load_trace(path).summarise()


@pytest.mark.parametrize("name", sorted(_bases()))
def test_fuzzed_traces_only_ever_raise_trace_error(tmp_path, name):
    """Random damage (deep nesting among it) to a valid file of each format: it imports, or it is refused naming
    the file. A longer run: AMDAHL_FUZZ_ITERATIONS=20000 ./run.sh test -k fuzzed_traces (seed printed on failure)."""
    base = _bases()[name]
    load_trace(_write(tmp_path / name, base)).summarise()  # the undamaged file imports
    seed = int(os.environ.get("AMDAHL_FUZZ_SEED", "20261201")) + sum(map(ord, name))
    rng = random.Random(seed)
    kinds: dict[str, int] = {}
    for i in range(FUZZ_ITERATIONS):
        kind, damaged = _mutate(base, rng)
        path = _write(tmp_path / f"fuzz{i}-{name}", damaged)
        try:
            load_trace(path).summarise()
        except ProfileError as exc:
            assert str(exc).startswith(f"{path.name}: "), str(exc)
            kinds[kind] = kinds.get(kind, 0) + 1
        except Exception as exc:  # noqa: BLE001 - this is what the test looks for
            pytest.fail(f"seed {seed}, iteration {i} ({kind}): {type(exc).__name__}: {exc}")
        path.unlink()
    assert kinds.get("deep", 0) > 0  # deep nesting was among the damage, and refused
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 1024 * 1024


def _write(path, data: bytes):
    path.write_bytes(data)
    return path
