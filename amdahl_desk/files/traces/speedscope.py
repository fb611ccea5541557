"""speedscope JSON (py-spy ``--format speedscope`` and other samplers): self time per function."""

from __future__ import annotations

from typing import Any

import msgspec

from ...model.traces.errors import TraceError
from ...model.traces.functions import FunctionTimes
from ...model.traces.result import ImportNote, NoteKind
from .json_depth import too_deep
from .source import Progress, open_stream

# profile unit → milliseconds per unit; "none" (plain sample counts) is handled apart
_MS_PER = {"nanoseconds": 1e-6, "microseconds": 1e-3, "milliseconds": 1.0, "seconds": 1e3}
COUNT = "none"  # weights that count samples: each taken as 1 ms, with a warning


def read_speedscope(path: str, source: str, progress: Progress | None = None) -> FunctionTimes:
    """Self time of each function (same name and file = one function, whatever the line)."""
    with open_stream(path, source, progress) as (stream, tick):
        data = stream.read()
        tick()
    try:
        doc = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise TraceError(f"this speedscope file is not valid JSON ({exc})", source) from None
    except RecursionError:
        raise too_deep(data, source, 0, "this speedscope file") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("profiles"), list):
        raise TraceError('expected a speedscope profile: an object with "shared" and "profiles"', source)
    frames = doc.get("shared", {}).get("frames") if isinstance(doc.get("shared"), dict) else None
    if not isinstance(frames, list):
        raise TraceError('"shared.frames" is missing; expected the list of frames', source)
    keys = [_frame_key(f, i, source) for i, f in enumerate(frames)]
    result = FunctionTimes(source)
    units = set()
    for p, profile in enumerate(doc["profiles"]):
        where = f"profiles[{p}]"
        if not isinstance(profile, dict):
            raise TraceError("a profile is not an object", source, where)
        unit = profile.get("unit", COUNT)
        if unit not in _MS_PER and unit != COUNT:
            # bytes (a memory profile) or anything else that is not a time would become a time profile
            raise TraceError(
                f"the profile's unit is {unit!r}, not a time; expected nanoseconds, microseconds, milliseconds, "
                f'seconds or "none" (sample counts) — a memory profile (bytes) cannot be a time profile',
                source,
                f"{where}.unit",
            )
        units.add(unit)
        scale = _MS_PER.get(unit, 1.0)
        kind = profile.get("type")
        if kind == "sampled":
            _sampled(profile, keys, scale, result, source, where)
        elif kind == "evented":
            _evented(profile, keys, scale, result, source, where)
        else:
            raise TraceError(f'profile type is {kind!r}; expected "sampled" or "evented"', source, where)
        result.profiles += 1
    if not result.profiles:
        raise TraceError("the speedscope file has no profiles", source)
    if COUNT in units:
        result.sample_counts = True
        result.notes.append(ImportNote(NoteKind.SAMPLE_COUNTS))
    if result.profiles > 1:
        result.notes.append(ImportNote(NoteKind.THREADS_SUMMED, {"profiles": result.profiles}))
    return result


def _frame_key(frame: Any, i: int, source: str) -> tuple[str, str, int | None]:
    if not isinstance(frame, dict) or not isinstance(frame.get("name"), str):
        raise TraceError("a frame has no name", source, f"shared.frames[{i}]")
    line = frame.get("line")
    return frame["name"], str(frame.get("file") or ""), line if isinstance(line, int) else None


def _add(result: FunctionTimes, key: tuple[str, str, int | None], t: float) -> None:
    fn = (key[0], key[1])
    result.self_time[fn] += t
    if key[2] is not None:
        result.lines[fn].add(key[2])


def _sampled(
    profile: dict[str, Any],
    keys: list[tuple[str, str, int | None]],
    scale: float,
    result: FunctionTimes,
    source: str,
    where: str,
) -> None:
    samples, weights = profile.get("samples"), profile.get("weights")
    if not isinstance(samples, list) or not isinstance(weights, list) or len(samples) != len(weights):
        raise TraceError('"samples" and "weights" must be lists of the same length', source, where)
    for s, (stack, w) in enumerate(zip(samples, weights, strict=True)):
        if not isinstance(w, (int, float)) or not isinstance(stack, list):
            raise TraceError(
                "a sample is not a list of frame numbers with a numeric weight", source, f"{where}.samples[{s}]"
            )
        if not stack:
            result.no_stack += w * scale
            continue
        leaf = stack[-1]  # stacks run from the root to the leaf: the leaf is where the time is spent
        if not isinstance(leaf, int) or not 0 <= leaf < len(keys):
            raise TraceError(f"frame {leaf!r} is not in shared.frames", source, f"{where}.samples[{s}]")
        _add(result, keys[leaf], w * scale)


def _evented(
    profile: dict[str, Any],
    keys: list[tuple[str, str, int | None]],
    scale: float,
    result: FunctionTimes,
    source: str,
    where: str,
) -> None:
    events = profile.get("events")
    if not isinstance(events, list):
        raise TraceError('"events" must be a list of open/close events', source, where)
    stack: list[int] = []
    last = profile.get("startValue")
    for i, ev in enumerate(events):
        if not isinstance(ev, dict) or not isinstance(ev.get("at"), (int, float)) or ev.get("type") not in ("O", "C"):
            raise TraceError('expected {"type": "O" or "C", "frame": n, "at": time}', source, f"{where}.events[{i}]")
        at = ev["at"]
        if isinstance(last, (int, float)) and at > last:
            if stack:
                _add(result, keys[stack[-1]], (at - last) * scale)
            else:
                result.no_stack += (at - last) * scale
        last = at
        frame = ev.get("frame")
        if not isinstance(frame, int) or not 0 <= frame < len(keys):
            raise TraceError(f"frame {frame!r} is not in shared.frames", source, f"{where}.events[{i}]")
        if ev["type"] == "O":
            stack.append(frame)
        elif stack and stack[-1] == frame:
            stack.pop()
        else:
            raise TraceError("a close event does not match the innermost open frame", source, f"{where}.events[{i}]")
