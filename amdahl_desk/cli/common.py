"""What every subcommand shares: exit codes, the input-error type, printing a file's warnings and JSON."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.errors import Asked, BadInputError, InputError, ProfileError

if TYPE_CHECKING:
    from ..files import Loaded
    from ..model.analysis import Analysis
    from ..model.traces import ImportOptions

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2

# The flag that carries each value the model may refuse (model/errors.Asked): the one place the command line's
# words for them live.
FLAGS: dict[Asked, str] = {Asked.SPEEDUP: "--speedup", Asked.ON_RANKS: "--on-ranks"}

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_UNEXPECTED",
    "BadInputError",
    "analyse_loaded",
    "load_argument",
    "refusal_text",
    "refuse_repeats",
    "print_warnings",
    "write_json",
]


def refusal_text(exc: BadInputError) -> str:
    """A refusal as the command line says it: an :class:`InputError` names the flag its value came in."""
    return exc.worded(FLAGS[exc.asked]) if isinstance(exc, InputError) else str(exc)


def analyse_loaded(loaded: Loaded, source: str) -> Analysis:
    """The analysis of a profile read from ``source``; a refusal (all times 0) names the file and the time cells."""
    from ..model.analysis import analyse

    try:
        return analyse(loaded.profile)
    except ProfileError as exc:
        raise ProfileError([p if p.where else p.located(loaded.time_cells) for p in exc.problems], source) from None


def load_argument(
    path: str | Path,
    meanwhile: Sequence[str] = (),
    trace_options: ImportOptions | None = None,
    then: str = "amdahl-desk import TRACE --group-by {} --out PROFILE.xlsx",
) -> Loaded:
    """The profile a command was given: a workbook or CSV table as it is, or a profiler trace (a file or a
    folder of ranks) imported with the defaults, as the window's File → Open imports it.

    The one place ``report``, ``export`` and ``compare`` read a profile they are given, so a file is a
    profile to every command as it is to the window. ``meanwhile``: modules to import while a workbook's
    sheets are parsed (see :func:`amdahl_desk.files.load_profile`); ``trace_options``: how to import a
    trace (``compare --group-by``), the defaults when None; ``then``: how the command at hand gets the grouping
    a trace's note suggests ("{}": the grouping). Raises :class:`ProfileError` naming the file.
    """
    from ..files import is_trace, load_profile

    if not is_trace(path):
        return load_profile(path, meanwhile=meanwhile)
    from ..files.tables import Loaded
    from ..files.traces import load_trace
    from ..files.traces.grouping_note import grouping_note
    from ..model.errors import Problem
    from ..model.traces import ImportOptions

    options = trace_options or ImportOptions()
    trace = load_trace(path)  # as files.load_any reads it, with the trace kept to try other groupings on
    result = trace.summarise(options)
    warnings = [Problem(str(w)) for w in result.warnings]  # they name the trace file already
    hint = grouping_note(trace, result, options, then=then)
    if hint:
        warnings.append(Problem(hint))
    return Loaded(result.to_profile(), warnings, from_trace=True)


class _Once(argparse._StoreAction):
    """An option that takes one value and refuses a second, rather than keeping the last one silently."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given: dict[str, Any] = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in given:
            first = given[self.dest]
            parser.error(
                f'{option_string or self.dest} given twice ("{first}", then "{values}"): it takes one value; '
                "give it once"
            )
        given[self.dest] = values
        super().__call__(parser, namespace, values, option_string)


def refuse_repeats(parser: argparse.ArgumentParser) -> None:
    """Make each single-valued option of ``parser`` refuse being given twice (``--group-by op --group-by gpu``
    would otherwise keep "gpu" without a word). Options that gather (``--pair``) and switches are left as they are.
    """
    for action in parser._actions:
        if type(action) is argparse._StoreAction and action.option_strings and action.nargs is None:
            action.__class__ = _Once


def print_warnings(source: str, warnings: Iterable[object]) -> None:
    """Each warning of reading ``source`` on stderr, named by the file."""
    for w in warnings:
        print(f"{source}: warning: {w}", file=sys.stderr)


def write_json(data: Any, indent: int | None = None) -> None:
    """``data`` as UTF-8 JSON on stdout: indented for a person at a terminal (or by ``indent`` spaces),
    otherwise on one line as msgspec encodes it, without spaces after ", " and ":" (re-spacing a
    50,000-component report took a tenth of the time its encoding did, for no reader's sake).

    msgspec encodes in C at any indentation; Python's json module falls back to its pure-Python encoder
    whenever it indents, and even compact it took 0.15 s of a 50,000-component report. Values are the
    same JSON numbers (1e-05 may be written 0.00001); no value here is NaN or infinite (unbounded
    figures are null by contract).
    """
    import msgspec

    out = sys.stdout
    if indent is None and out.isatty():
        indent = 2
    text = msgspec.json.encode(data)
    if indent:
        text = msgspec.json.format(text, indent=indent)
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(text)  # the newline apart: joining it would copy megabytes
        buffer.write(b"\n")
        buffer.flush()
    else:  # a text-only stream (a test's capture, an IDE's console)
        out.write(text.decode("utf-8") + "\n")
