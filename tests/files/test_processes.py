"""pid_alive on both branches: POSIX signal 0, and the Windows API (mocked, as this runs on Linux)."""

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from amdahl_desk.files import processes
from amdahl_desk.files.processes import pid_alive


def test_this_process_and_a_finished_one():
    assert pid_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not pid_alive(child.pid)
    assert not pid_alive(0) and not pid_alive(-5)


def test_a_running_child_is_alive():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert pid_alive(child.pid)
    finally:
        child.kill()
        child.wait()


def test_posix_process_of_another_user_counts_as_alive(monkeypatch):
    def denied(pid, sig):
        raise PermissionError

    monkeypatch.setattr(processes.os, "kill", denied)
    assert processes._posix_alive(12345)


class FakeKernel32:
    """OpenProcess / GetExitCodeProcess / CloseHandle as Windows answers them."""

    def __init__(self, exists: bool, exit_code: int = processes.STILL_ACTIVE, denied: bool = False):
        self.exists, self.exit_code, self.denied = exists, exit_code, denied
        self.closed = []
        self.last_error = 0

    def OpenProcess(self, access, inherit, pid):
        assert access == processes.PROCESS_QUERY_LIMITED_INFORMATION
        if self.denied:
            self.last_error = processes.ERROR_ACCESS_DENIED
            return 0
        if not self.exists:
            self.last_error = 87  # ERROR_INVALID_PARAMETER: no such process
            return 0
        return 4242

    def GetExitCodeProcess(self, handle, code_ref):
        code_ref._obj.value = self.exit_code
        return 1

    def CloseHandle(self, handle):
        self.closed.append(handle)
        return 1


@pytest.mark.parametrize(
    ("kernel", "alive"),
    [
        (FakeKernel32(exists=True), True),
        (FakeKernel32(exists=True, exit_code=0), False),  # exited, handle still held by someone
        (FakeKernel32(exists=False), False),
        (FakeKernel32(exists=False, denied=True), True),
    ],
)
def test_windows_branch(monkeypatch, kernel, alive):
    monkeypatch.setattr(processes.sys, "platform", "win32")
    fake_ctypes = SimpleNamespace(
        WinDLL=lambda name, use_last_error: kernel,
        get_last_error=lambda: kernel.last_error,
        c_ulong=processes.ctypes.c_ulong,
        byref=processes.ctypes.byref,
    )
    monkeypatch.setattr(processes, "ctypes", fake_ctypes)
    # os.kill must never be used on Windows: signal 0 there is CTRL_C_EVENT.
    monkeypatch.setattr(processes.os, "kill", lambda *a: pytest.fail("os.kill called on Windows"))
    assert pid_alive(999_999) is alive
    if kernel.exists:
        assert kernel.closed == [4242]
