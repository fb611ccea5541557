"""Reading the after profile: the one function the window calls, so the trace import plugs in here."""

from __future__ import annotations

from pathlib import Path

from ...files import load_profile
from ...model.errors import ProfileError
from ...model.profile import Profile

# Profiler traces by their names, as the compare command recognises them: refused clearly until the trace
# import exists, which then reads them here (with the import's defaults) instead.
TRACE_SUFFIXES = (".json", ".json.gz", ".pt.trace.json", ".nsys-rep", ".qdrep", ".sqlite", ".speedscope")


def is_trace(path: str | Path) -> bool:
    name = Path(path).name.lower()
    return any(name.endswith(s) for s in TRACE_SUFFIXES)


def load_after(path: str | Path) -> tuple[Profile, tuple[str, ...]]:
    """The after profile and the warnings of reading it; raises :class:`ProfileError` with a message for a person.

    Workbooks and CSV tables today, through ``files.load_profile`` like File → Open. A profiler trace
    is refused by name; the trace import replaces that refusal with its reader (same grouping defaults
    as the import command).
    """
    path = Path(path)
    if is_trace(path):
        raise ProfileError(
            "this is a profiler trace; this version of Amdahl Desk compares a profile with a workbook (.xlsx) "
            "or a CSV table. Compare like with like: a profile with a profile.",
            source=path.name,
        )
    try:
        loaded = load_profile(path)
    except ProfileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged file must give a message, never a traceback
        raise ProfileError(f"unexpected error while reading: {exc}", source=path.name) from exc
    return loaded.profile, tuple(str(w) for w in loaded.warnings)
