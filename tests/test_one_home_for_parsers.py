"""Every parser of a typed number or quantity is taken from one place, ``amdahl_desk.model.values``, outside the
model: the modules that read numbers, times and quantities are the model's own."""

import ast
from pathlib import Path

import amdahl_desk.model.values as values

PACKAGE = Path(__file__).resolve().parents[1] / "amdahl_desk"
ERRORS = {"ParseError", "NumberFormatError", "AmbiguousNumberError"}
NUMBER_MODULES = {"model.numbers", "model.units", "model.quantities"}


def parser_imports(path: Path) -> list[tuple[int, str, str]]:
    """(line, module, name) of each parser or parse error imported from a number module rather than values."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            module = node.module.removeprefix("amdahl_desk.").lstrip(".")
            if module not in NUMBER_MODULES:
                continue
            found += [
                (node.lineno, node.module, a.name)
                for a in node.names
                if a.name.startswith("parse_") or a.name in ERRORS
            ]
    return found


def test_outside_the_model_parsers_come_from_values():
    stray = {
        f"{path.relative_to(PACKAGE.parent)}:{line} from {module} import {name}"
        for path in PACKAGE.rglob("*.py")
        if "model" not in path.relative_to(PACKAGE).parts[:1]
        for line, module, name in parser_imports(path)
    }
    assert not stray, "import these from amdahl_desk.model.values:\n" + "\n".join(sorted(stray))


def test_values_offers_every_parser_of_the_model():
    """A parser added to numbers, units or quantities is offered by the facade too."""
    from amdahl_desk.model import numbers, quantities, units

    defined = {
        name
        for module in (numbers, quantities, units)
        for name in dir(module)
        if name.startswith("parse_") and getattr(module, name).__module__ == module.__name__
    }
    assert defined and defined <= set(dir(values)), sorted(defined - set(dir(values)))


def test_the_check_finds_a_stray_import(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text("from ..model.units import TimeUnit, parse_time\nfrom ..model.values import parse_effort\n")
    assert parser_imports(stray) == [(1, "model.units", "parse_time")]
