"""docs/api.md runs as written: every example on the page is executed and its output compared (doctest)."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGE = ROOT / "docs" / "api.md"

pytestmark = pytest.mark.gui  # the page draws two charts (offscreen)


def test_the_api_page_runs_as_written(tmp_path, monkeypatch):
    # The page's paths are the repository's; what it writes (the charts) lands in a folder of its own.
    (tmp_path / "resources").symlink_to(ROOT / "resources")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "fixtures").symlink_to(ROOT / "tests" / "fixtures")
    (tmp_path / "tests" / "traces").symlink_to(ROOT / "tests" / "traces")
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted > 30
    assert result.failed == 0, "docs/api.md: see the failures printed above"
    assert (tmp_path / "speedup.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "breakdown.pdf").read_bytes().startswith(b"%PDF")
