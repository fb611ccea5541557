#!/usr/bin/env bash
# Builds the one-folder application into packaging/pyinstaller/dist/amdahl-desk (Linux, macOS).
#   packaging/pyinstaller/build.sh [PYTHON]      PYTHON: an interpreter with Amdahl Desk installed
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${1:-python3}
# PyInstaller needs objdump (binutils) and the interpreter's shared library (libpython3.X on Debian).
missing=()
command -v objdump >/dev/null 2>&1 || missing+=(binutils)
pylib=$("$python" - <<'PY'
import ctypes.util, glob, os, sysconfig
ver = sysconfig.get_python_version()
libdir = sysconfig.get_config_var("LIBDIR") or ""
if not (glob.glob(os.path.join(libdir, f"libpython{ver}*.so*")) or ctypes.util.find_library(f"python{ver}")):
    print(f"libpython{ver}")
PY
)
[ -n "$pylib" ] && missing+=("$pylib")
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing what PyInstaller needs: ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "PyInstaller needs these packages: ${missing[*]} (on Debian/Ubuntu: apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
fi
"$python" -m pip install -q "pyinstaller>=6.10,<7"
cd "$here"
"$python" -m PyInstaller --noconfirm --clean --log-level WARN --distpath "${DIST:-$here/dist}" \
  --workpath "${WORK:-$here/build}" amdahl-desk.spec
echo "Built ${DIST:-$here/dist}/amdahl-desk/amdahl-desk"
