#!/usr/bin/env bash
# Removes what install.sh put in the current user's menu and icon theme.
set -euo pipefail
data=${XDG_DATA_HOME:-$HOME/.local/share}
rm -f "$data/applications/amdahl-desk.desktop"
for dir in "$data"/icons/hicolor/*/apps; do
  rm -f "$dir/amdahl-desk.png" "$dir/amdahl-desk.svg"
done
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$data/applications" || true
echo "Removed Amdahl Desk from the menu"
