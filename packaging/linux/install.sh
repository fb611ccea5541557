#!/usr/bin/env bash
# Puts Amdahl Desk in the current user's application menu, with its icon, and offers it under
# "Open with" for .xlsx and .csv files — without making it the default for them.
#   packaging/linux/install.sh [PATH-TO-amdahl-desk]
# Without an argument it uses the amdahl-desk on PATH, else the one in the repository's .venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
exe=${1:-$(command -v amdahl-desk || true)}
[ -n "$exe" ] || exe="$root/.venv/bin/amdahl-desk"
if [ ! -x "$exe" ]; then
  echo "amdahl-desk not found; run ./run.sh once (or pass the path to the amdahl-desk program)" >&2
  exit 1
fi
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
data=${XDG_DATA_HOME:-$HOME/.local/share}
apps="$data/applications"
icons="$data/icons/hicolor"
icon_src="$root/resources/icons"
[ -d "$icon_src" ] || icon_src=$("$(dirname "$exe")/python" -c 'from amdahl_desk.resources import resources_dir; print(resources_dir() / "icons")')
mkdir -p "$apps"
sed "s|@EXEC@|$exe|g" "$here/amdahl-desk.desktop.in" > "$apps/amdahl-desk.desktop"
chmod 644 "$apps/amdahl-desk.desktop"
for size in 16 24 32 48 64 128 256 512; do
  mkdir -p "$icons/${size}x${size}/apps"
  cp "$icon_src/amdahl-desk-$size.png" "$icons/${size}x${size}/apps/amdahl-desk.png"
done
mkdir -p "$icons/scalable/apps"
cp "$icon_src/amdahl-desk.svg" "$icons/scalable/apps/amdahl-desk.svg"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$icons" || true
echo "Installed: $apps/amdahl-desk.desktop (runs $exe)"
