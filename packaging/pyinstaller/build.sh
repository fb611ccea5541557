#!/usr/bin/env bash
# Builds the one-folder application into packaging/pyinstaller/dist/amdahl-desk (Linux, macOS).
#   packaging/pyinstaller/build.sh [PYTHON]      PYTHON: an interpreter with Amdahl Desk installed
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${1:-python3}
"$python" -m pip install -q "pyinstaller>=6.10,<7"
cd "$here"
"$python" -m PyInstaller --noconfirm --clean --log-level WARN --distpath "${DIST:-$here/dist}" \
  --workpath "${WORK:-$here/build}" amdahl-desk.spec
echo "Built ${DIST:-$here/dist}/amdahl-desk/amdahl-desk"
