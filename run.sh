#!/usr/bin/env bash
# Amdahl Desk: set up and start.
#   ./run.sh [PROFILE.xlsx|.csv] [--screenshot PNG]   set up (once) and open the window
#   ./run.sh test [PYTEST ARGS]                       set up (once, with test tools) and run the tests
#                                                     (-m "not slow" leaves out the wheel and bundle builds)
#   ./run.sh cli report PROFILE ...                   the headless command (amdahl-desk report/scale)
# Setup: Qt's system libraries on Debian/Ubuntu (installed when run as root or with sudo, otherwise
# the apt-get line is printed), then a virtual environment in .venv with the app installed in it.
set -euo pipefail
cd "$(dirname "$0")"
VENV=${AMDAHL_DESK_VENV:-.venv}
PYTHON=${PYTHON:-python3}

qt_libs=(libgl1 libegl1 libfontconfig1 libglib2.0-0 libxkbcommon0 libdbus-1-3 fonts-dejavu-core)
# The xcb platform plugin (a real X11 window) needs these as well.
x11_libs=(libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
          libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1)

missing_debs() {
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
  done
}

install_debs() {
  local missing
  missing=$(missing_debs "$@")
  [ -z "$missing" ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Amdahl Desk needs Qt's system libraries (OpenGL, EGL, fontconfig, xkbcommon, D-Bus, a font)." >&2
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "Please install the system libraries Qt needs, then run this again:" >&2
      echo "  apt-get install -y $(echo $missing)" >&2
      exit 1
    fi
  fi
  echo "Installing system libraries for Qt: $(echo $missing)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

setup() {  # $1: pip extras, e.g. "[test]" or ""
  install_debs "${qt_libs[@]}"
  if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV" || {
      echo "Could not create a virtual environment; on Debian/Ubuntu: apt-get install python3-venv" >&2
      exit 1
    }
  fi
  local stamp="$VENV/.installed$1"
  # The test setup installs the app too: after it, the plain start needs nothing more.
  if [ -z "$1" ] && [ -f "$VENV/.installed[test]" ] && [ ! pyproject.toml -nt "$VENV/.installed[test]" ]; then
    stamp="$VENV/.installed[test]"
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    # setuptools prints an "Editable installation" banner (a warning) on every editable install: not for us.
    PYTHONWARNINGS="ignore:Editable installation${PYTHONWARNINGS:+,$PYTHONWARNINGS}" \
      "$VENV/bin/python" -m pip install -q -e ".$1"
    touch "$stamp"
  fi
  # Bytecode for the whole package now, so that a start where Python cannot write it (a read-only checkout,
  # PYTHONDONTWRITEBYTECODE) does not compile every module it imports; quick when it is up to date.
  "$VENV/bin/python" -m compileall -q amdahl_desk >/dev/null 2>&1 || true
}

# What PyInstaller needs to bundle the app (the bundle test; packaging/pyinstaller/build.sh does the same):
# objdump from binutils, and the running Python's shared library (libpython3.X on Debian).
bundle_debs() {  # $1: the Python the bundle is built with
  command -v objdump >/dev/null 2>&1 || echo binutils
  "$1" - <<'PY'
import ctypes.util, glob, os, sysconfig
ver = sysconfig.get_python_version()
libdir = sysconfig.get_config_var("LIBDIR") or ""
if not (glob.glob(os.path.join(libdir, f"libpython{ver}*.so*")) or ctypes.util.find_library(f"python{ver}")):
    print(f"libpython{ver}")
PY
}

install_bundle_debs() {  # $1: python
  local missing
  missing=$(bundle_debs "$1" | tr '\n' ' ')
  [ -z "${missing// /}" ] && return 0
  (install_debs $missing) >/dev/null 2>&1 || true
  missing=$(bundle_debs "$1" | tr '\n' ' ')
  if [ -n "${missing// /}" ]; then
    echo "The bundle test needs these Debian packages, which could not be installed: $missing" >&2
    echo "  (apt-get install -y $missing), or leave it out with: ./run.sh test -m 'not slow'" >&2
  fi
}

case "${1:-}" in
  test)
    shift
    setup "[test]"
    # Checks the desktop entry when available; its test is skipped without it.
    (install_debs desktop-file-utils) >/dev/null 2>&1 || true
    # Exported SVG and PDF are checked as other programs draw them: rsvg-convert and pdftoppm.
    (install_debs librsvg2-bin poppler-utils) >/dev/null 2>&1 || true
    # The bundle test (marked slow) builds with PyInstaller: only when slow tests are asked for.
    if [[ " $* " != *"not slow"* ]]; then
      install_bundle_debs "$VENV/bin/python"
    fi
    # On every core the machine has (AMDAHL_TEST_WORKERS=0 runs in this one process).
    exec "$VENV/bin/python" -m pytest -n "${AMDAHL_TEST_WORKERS:-auto}" "$@"
    ;;
  cli)
    shift
    setup ""
    exec "$VENV/bin/python" -m amdahl_desk "$@"
    ;;
  *)
    setup ""
    if [[ " $* " == *" --screenshot "* ]]; then
      export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
    elif [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
      # No screen here: run on a virtual X screen so the app still starts for real.
      install_debs xvfb xauth "${x11_libs[@]}"
      echo "No display found: Amdahl Desk runs on a virtual screen (Xvfb). On a desktop it opens a window;"
      echo "here, use './run.sh --screenshot shot.png' to see it. Stop with Ctrl+C."
      exec xvfb-run -a -s "-screen 0 1600x1000x24" "$VENV/bin/python" -m amdahl_desk "$@"
    else
      install_debs "${x11_libs[@]}"
    fi
    exec "$VENV/bin/python" -m amdahl_desk "$@"
    ;;
esac
