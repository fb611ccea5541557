"""Entry point of the bundled application (PyInstaller): the same as the amdahl-desk command."""

import sys

from amdahl_desk.cli import main

if __name__ == "__main__":
    sys.exit(main())
