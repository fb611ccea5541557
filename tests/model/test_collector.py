"""The cycle collector is paused while rows are built and is as it was afterwards, whatever happens."""

import gc
import threading

import pytest

from amdahl_desk.files import load_profile
from amdahl_desk.model.collector import collector_paused
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.resources import example_path


@pytest.fixture(autouse=True)
def _collector_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_paused_inside_and_back_after_nested_pauses():
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()


def test_back_after_an_error():
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled():
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_pauses_overlapping_on_two_threads():
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with collector_paused():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    with collector_paused():
        thread.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other thread's pause has not ended
    release.set()
    thread.join(10)
    assert gc.isenabled()


def test_reading_a_workbook_pauses_it_and_gives_it_back(monkeypatch):
    import amdahl_desk.files.workbook as workbook

    seen = []
    read = workbook.read_workbook

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return read(*args, **kwargs)

    monkeypatch.setattr(workbook, "read_workbook", watched)
    assert load_profile(example_path()).profile.components
    assert seen == [False] and gc.isenabled()


def test_a_refused_file_gives_it_back(tmp_path):
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ProfileError):
        load_profile(bad)
    assert gc.isenabled()
