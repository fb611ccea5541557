"""Unsaved work survives a crash: a copy in the user's data folder, offered back at the next start."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...files import atomic_write, load_profile, pid_alive, save_profile
from ...model.errors import ProfileError
from ...model.profile import Profile

if TYPE_CHECKING:  # a job's sheet is written only when the profile stands for one: not read at start-up
    from ...files import JobSheet


def data_dir() -> Path:
    """The user's data folder (or $AMDAHL_DESK_DATA_DIR, as tests use)."""
    folder = os.environ.get("AMDAHL_DESK_DATA_DIR")
    if not folder:
        from platformdirs import user_data_dir

        folder = user_data_dir("amdahl-desk", appauthor=False)
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_text(path: str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")


@dataclass
class Recovered:
    """Work left by a session that did not end normally."""

    profile: Profile
    path: Path | None  # the file it was opened from, if any
    saved_at: float
    files: tuple[Path, Path]
    job: JobSheet | None = None  # the job of many ranks it stood for (its traces written whole)


class RecoveryStore:
    """One recovery copy per running session, named by process id."""

    def __init__(self, folder: Path | None = None, pid: int | None = None) -> None:
        self.folder = (folder or data_dir()) / "recovery"
        self.pid = os.getpid() if pid is None else pid
        self.stem = f"session-{self.pid}"

    @property
    def workbook(self) -> Path:
        return self.folder / f"{self.stem}.xlsx"

    @property
    def meta(self) -> Path:
        return self.folder / f"{self.stem}.json"

    def write(self, profile: Profile, path: Path | None, job: JobSheet | None = None) -> None:
        """Keep a copy of ``profile`` (and where it came from, and the job it stands for); raises OSError."""
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write(self.workbook, lambda tmp: save_profile(profile, tmp, csv=False, job=job))
        meta = {"path": str(path) if path else None, "saved_at": time.time(), "pid": self.pid}
        atomic_write(self.meta, lambda tmp: _write_text(tmp, json.dumps(meta)))

    def clear(self) -> None:
        for file in (self.workbook, self.meta):
            file.unlink(missing_ok=True)

    def left_behind(self) -> list[Recovered]:
        """Copies from sessions that are no longer running, newest first; unreadable ones are dropped."""
        found: list[Recovered] = []
        if not self.folder.is_dir():
            return found
        for meta_file in self.folder.glob("session-*.json"):
            workbook = meta_file.with_suffix(".xlsx")
            try:
                meta = json.loads(meta_file.read_text(encoding="utf-8"))
                if pid_alive(int(meta.get("pid", 0))):
                    continue
                loaded = load_profile(workbook)
            except (OSError, ValueError, ProfileError):
                continue
            path = Path(meta["path"]) if meta.get("path") else None
            found.append(
                Recovered(loaded.profile, path, float(meta.get("saved_at", 0)), (workbook, meta_file), loaded.job)
            )
        return sorted(found, key=lambda r: -r.saved_at)
