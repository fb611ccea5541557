"""The window (no subcommand): ``amdahl-desk [PROFILE] [--screenshot PNG [--size WxH]]``."""

from __future__ import annotations

import argparse

from ..files.preload import read_ahead
from ..resources import example_path
from .common import BadInputError


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="amdahl-desk", add_help=False)
    parser.add_argument("profile", nargs="?")
    parser.add_argument("--screenshot", metavar="PNG")
    parser.add_argument("--size", metavar="WxH", default="1600x1000")
    return parser


def run(args: argparse.Namespace) -> int:
    # A workbook's sheets are parsed on another thread while Qt and the window's modules load.
    ahead = read_ahead(args.profile)
    try:
        from ..ui import without_source_scan

        without_source_scan()  # this process is the window's: its modules load unread
        from ..ui.app import run as run_window
    except ImportError as exc:
        raise BadInputError(
            f"the window cannot start: {exc}. Run the setup command from the README "
            "(on a bare Debian the Qt system libraries are needed too)"
        ) from None
    return run_window(
        args.profile, screenshot=args.screenshot, size=args.size, default_profile=str(example_path()), ahead=ahead
    )
