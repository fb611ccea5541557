"""The layer contracts, lint and types are checked by the same test command as everything else."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> str:
    """A console script of the running environment (beside its python), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed; it comes with the test outcomes: pip install -e '.[test]'")
    return found


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_import_contracts_hold():
    """model → files → ui → cli; no Qt below the window or in headless commands; files through its facade."""
    out = run(tool("lint-imports"), "--no-cache")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_ruff_finds_nothing():
    out = run(tool("ruff"), "check", "--no-cache", "amdahl_desk", "tests")
    assert out.returncode == 0, out.stdout + out.stderr
    out = run(tool("ruff"), "format", "--check", "--no-cache", "amdahl_desk", "tests")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_over_the_package():
    out = run(tool("mypy"))
    assert out.returncode == 0, out.stdout + out.stderr
