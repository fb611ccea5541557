"""Where the bundled resources (examples, icons) live, in a source tree or an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resources_dir() -> Path:
    """``amdahl_desk/resources`` in a wheel; ``resources/`` beside the package in a checkout."""
    for candidate in (_PACKAGE / "resources", _PACKAGE.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("Amdahl Desk's resources folder is missing; reinstall the application")


def example_path(name: str = "training-iteration.xlsx") -> Path:
    return resources_dir() / "examples" / name


def icon_path(name: str = "amdahl-desk.svg") -> Path:
    return resources_dir() / "icons" / name
