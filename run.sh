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
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e ".$1"
    touch "$stamp"
  fi
}

case "${1:-}" in
  test)
    shift
    setup "[test]"
    # Checks the desktop entry when available; its test is skipped without it.
    (install_debs desktop-file-utils) >/dev/null 2>&1 || true
    exec "$VENV/bin/python" -m pytest "$@"
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
