"""Entry point of the bundled application (PyInstaller): the same as the amdahl-desk command."""

from amdahl_desk.cli import entry

if __name__ == "__main__":
    entry()
