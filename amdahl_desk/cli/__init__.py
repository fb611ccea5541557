"""The ``amdahl-desk`` command: the window by default; one module per headless subcommand.

Each subcommand module has ``NAME``, ``register(subparsers)`` and ``run(args) -> exit status``;
adding one is adding it to ``SUBCOMMANDS``. Modules are imported by name on use, so ``report``
never loads what ``export`` needs, and nothing here loads Qt unless a window or a rendering is asked for.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .. import __version__
from ..model.errors import ProfileError
from .common import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNEXPECTED, BadInputError, refusal_text, refuse_repeats

# name → module (relative to this package)
SUBCOMMANDS: dict[str, str] = {
    "report": ".report",
    "scale": ".scale",
    "export": ".export",
    "import": ".import_",
    "fit": ".fit",
    "compare": ".compare",
    "whatif": ".whatif",
    "job": ".job",
}


__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "EXIT_UNEXPECTED", "SUBCOMMANDS", "BadInputError", "entry", "main"]


def _module(name: str) -> ModuleType:
    return importlib.import_module(SUBCOMMANDS[name], __name__)


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, just that subcommand is registered, so running one
    command imports no other command's module (the trace reader, the fits…)."""
    parser = argparse.ArgumentParser(
        prog="amdahl-desk",
        description="Decide which optimization is worth building: Amdahl's law on a measured profile.",
        epilog=(
            "With no subcommand the window opens: amdahl-desk [PROFILE] [--screenshot PNG [--size WxH]] — on "
            "PROFILE, else the last document, else the bundled example. --screenshot renders the window "
            "offscreen to PNG and exits."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"amdahl-desk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(SUBCOMMANDS) + "}")
    for name in [only] if only else SUBCOMMANDS:
        _module(name).register(sub)
        refuse_repeats(sub.choices[name])  # a single-valued option given twice is refused, never the last kept
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and (args_list[0] in SUBCOMMANDS or args_list[0] in ("-h", "--help", "--version")):
            only = args_list[0] if args_list[0] in SUBCOMMANDS else None
            args = _parser(only).parse_args(args_list)
            status: int = _module(args.command).run(args)
            return status
        from . import window

        gui_args, unknown = window.parser().parse_known_args(args_list)
        if unknown:
            raise BadInputError(f"unknown arguments: {' '.join(unknown)} (see amdahl-desk --help)")
        return window.run(gui_args)
    except BadInputError as exc:
        print(f"amdahl-desk: {refusal_text(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ProfileError as exc:
        from ..present.import_notes import refusal_remedy

        print(str(exc) + refusal_remedy(exc), file=sys.stderr)  # a refused trace: the flag that acts on it
        return EXIT_BAD_INPUT
    except SystemExit as exc:  # argparse: --help exits 0, a usage error 2
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except Exception:  # noqa: BLE001 - the promise is "exit 1, never a bare traceback"
        import logging  # only here: a command that succeeds never spends the import

        logging.getLogger("amdahl_desk").exception("unexpected error")
        print("amdahl-desk: unexpected error; please report it with the traceback above", file=sys.stderr)
        return EXIT_UNEXPECTED


def entry() -> None:
    """The commands' entry point: :func:`main`, then the process ends.

    A headless command runs without the cyclic garbage collector, and after it the interpreter is not
    torn down object by object: its output is flushed and the process exits at once, as mypy's command
    does (freeing a 50,000-component profile and its report one object at a time took a sixteenth of
    ``report --json``). A window runs and exits the usual way.
    """
    headless = len(sys.argv) > 1 and sys.argv[1] in SUBCOMMANDS
    if headless:
        # A headless command builds a few hundred thousand small objects that hold no cycles and exits
        # within seconds: the collector's passes over them (50–100 ms of a 0.75 s 50,000-component
        # report, measured) would free nothing. Memory is still freed as each object goes.
        gc.disable()
    status = main()
    if not headless:
        sys.exit(status)
    if "logging" in sys.modules:  # flush a log file a window or an unexpected error opened
        sys.modules["logging"].shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed or broken pipe: nothing more can reach it
            stream.flush()
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    entry()
