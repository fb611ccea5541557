"""Whether a process still runs, portably and without Qt: the recovery store asks it of other sessions."""

from __future__ import annotations

import ctypes
import os
import sys

# Windows API values (winnt.h, minwinbase.h).
PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
STILL_ACTIVE = 259
ERROR_ACCESS_DENIED = 5


def pid_alive(pid: int) -> bool:
    """True when a process with id ``pid`` exists (also when it belongs to another user)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if sys.platform == "win32":
        return _windows_alive(pid)
    return _posix_alive(pid)


def _posix_alive(pid: int) -> bool:
    # Signal 0 checks that the process exists without sending anything. (On Windows os.kill(pid, 0)
    # would send CTRL_C_EVENT to a console process group instead: hence the separate branch.)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    except OSError:
        return False
    return True


def _windows_alive(pid: int) -> bool:
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        # No such process, or one we may not look at: only the latter exists.
        return bool(ctypes.get_last_error() == ERROR_ACCESS_DENIED)  # type: ignore[attr-defined]
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True  # it exists; its state is unknown
        return code.value == STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)
