"""The Python API: Amdahl Desk's answers in a notebook or a script, through the functions the command line uses.

``import amdahl_desk as ad`` and then ``ad.load``, ``ad.whatif``, ``ad.job``, ``ad.fit``, ``ad.compare`` (docs/api.md).
Every figure comes from the model the window and ``amdahl-desk`` use, and every ``to_dict()`` is built by the
very function that writes that command's ``--json``. Nothing here loads Qt, except :meth:`Chart.render` when a
picture is asked for. Tables are pandas DataFrames; pandas comes with the ``notebook`` extra. The parts live in
:mod:`amdahl_desk.api_parts`, one module per kind of answer; this module is their public face.
"""

from __future__ import annotations

from .api_parts.analysis import Analysis, Chart, Decision, Plan
from .api_parts.common import MissingExtraError
from .api_parts.job import Job, JobWhatIf, Straggler, job
from .api_parts.measured import Comparison, Fit, compare, fit
from .api_parts.profile import Profile, load
from .api_parts.trace import WhatIf, whatif
from .model.errors import BadInputError, Error, ProfileError, Refusal

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
    "compare",
    "fit",
    "job",
    "load",
    "whatif",
]
