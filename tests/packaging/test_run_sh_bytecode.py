"""./run.sh leaves bytecode for every module of the package, so that a start where Python cannot write it (a
read-only checkout, PYTHONDONTWRITEBYTECODE) does not compile what it imports."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("bash") is None, reason="run.sh is a bash script")
def test_run_sh_compiles_every_module(tmp_path):
    venv = Path(sys.prefix)
    if not (venv / ".installed[test]").exists() or venv.parent != ROOT:
        pytest.skip("needs the checkout's own .venv, set up by ./run.sh test")
    package = ROOT / "amdahl_desk"
    modules = sorted(package.rglob("*.py"))
    # A module whose bytecode is missing: as a checkout has it before its first start.
    probe = modules[0]
    cached = Path(importlib.util.cache_from_source(str(probe)))
    if cached.exists():
        cached.unlink()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "AMDAHL_DESK_VENV": str(venv)}
    done = subprocess.run(
        ["bash", str(ROOT / "run.sh"), "cli", "--version"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    missing = [str(m.relative_to(ROOT)) for m in modules if not Path(importlib.util.cache_from_source(str(m))).exists()]
    assert missing == []
