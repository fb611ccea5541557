"""A small, safe evaluator for the spreadsheet formulas a profile's cells hold: arithmetic over cells.

Numbers, + − * / ^ %, unary minus, parentheses, & (text), comparisons, references (A1, $A$1,
Sheet!A1, 'My sheet'!A1:B9) and SUM, PRODUCT, AVERAGE, MIN, MAX, COUNT, ABS, ROUND, ROUNDUP,
ROUNDDOWN, INT, SQRT, IF. Anything else raises :class:`UnsupportedFormulaError` with the reason, so the
reader can refuse the cell instead of trusting a value it cannot check. Nothing is ever handed
to Python's ``eval``: the text is tokenized and walked here, with bounds on its size and depth.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP
from decimal import Decimal as _Dec

MAX_FORMULA_CHARS = 8192
MAX_RANGE_CELLS = 2_000_000
MAX_DEPTH = 64

Value = float | str | bool | None
# (sheet or None for the formula's own sheet, row, column): 0-based.
Ref = tuple[str | None, int, int]


class UnsupportedFormulaError(ValueError):
    """A formula this evaluator does not compute (or a spreadsheet error); the message says why."""


@dataclass(frozen=True)
class CellRef:
    sheet: str | None
    row: int
    col: int
    row_abs: bool = False
    col_abs: bool = False


@dataclass(frozen=True)
class RangeRef:
    first: CellRef
    last: CellRef


Node = float | str | bool | CellRef | RangeRef | tuple[object, ...]

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<string>"(?:[^"]|"")*")
  | (?P<ref>(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d{1,7}(?::\$?[A-Za-z]{1,3}\$?\d{1,7})?(?![\w(]))
  | (?P<func>[A-Za-z][A-Za-z0-9.]*)\s*\(
  | (?P<bool>TRUE|FALSE)(?![\w(])
  | (?P<op><=|>=|<>|[-+*/^&%=<>(),:])
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_CELL = re.compile(r"(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})")


def column_index(letters: str) -> int:
    """A → 0, Z → 25, AA → 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _cell(text: str, sheet: str | None) -> CellRef:
    m = _CELL.fullmatch(text)
    if m is None:
        raise UnsupportedFormulaError(f"{text} is not a cell reference")
    return CellRef(sheet, int(m.group(4)) - 1, column_index(m.group(2)), bool(m.group(3)), bool(m.group(1)))


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise UnsupportedFormulaError(f"cannot read the formula from “{text[pos : pos + 20]}”")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    """Recursive descent with Excel's precedence: comparison < & < + − < * / < ^ < unary − < %."""

    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        self.i += 1
        return tok

    def expect(self, op: str) -> None:
        kind, value = self.take()
        if kind != "op" or value != op:
            raise UnsupportedFormulaError(f'expected "{op}" in the formula')

    def parse(self) -> Node:
        node = self.comparison()
        if self.peek()[0] != "end":
            raise UnsupportedFormulaError(f'unexpected "{self.peek()[1]}" in the formula')
        return node

    def comparison(self) -> Node:
        node = self.concat()
        while self.peek() in (("op", "="), ("op", "<"), ("op", ">"), ("op", "<="), ("op", ">="), ("op", "<>")):
            node = ("cmp", self.take()[1], node, self.concat())
        return node

    def concat(self) -> Node:
        node = self.additive()
        while self.peek() == ("op", "&"):
            self.take()
            node = ("&", node, self.additive())
        return node

    def additive(self) -> Node:
        node = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            node = (self.take()[1], node, self.term())
        return node

    def term(self) -> Node:
        node = self.power()
        while self.peek() in (("op", "*"), ("op", "/")):
            node = (self.take()[1], node, self.power())
        return node

    def power(self) -> Node:
        node = self.unary()
        while self.peek() == ("op", "^"):
            self.take()
            node = ("^", node, self.unary())
        return node

    def unary(self) -> Node:
        if self.peek() in (("op", "-"), ("op", "+")):
            sign = self.take()[1]
            operand = self.unary()
            return ("neg", operand) if sign == "-" else ("pos", operand)
        node = self.primary()
        while self.peek() == ("op", "%"):
            self.take()
            node = ("%", node)
        return node

    def primary(self) -> Node:
        kind, value = self.take()
        if kind == "number":
            return float(value)
        if kind == "string":
            return value[1:-1].replace('""', '"')
        if kind == "bool":
            return value.upper() == "TRUE"
        if kind == "ref":
            return _reference(value)
        if kind == "func":
            args: list[Node] = []
            if self.peek() != ("op", ")"):
                args.append(self.comparison())
                while self.peek() == ("op", ","):
                    self.take()
                    args.append(self.comparison())
            self.expect(")")
            return ("call", value.upper(), tuple(args))
        if (kind, value) == ("op", "("):
            node = self.comparison()
            self.expect(")")
            return node
        raise UnsupportedFormulaError(f'unexpected "{value}" in the formula' if value else "the formula ends too early")


def _reference(text: str) -> CellRef | RangeRef:
    sheet = None
    if "!" in text:
        sheet, _, text = text.rpartition("!")
        if sheet.startswith("'"):
            sheet = sheet[1:-1].replace("''", "'")
    if ":" in text:
        a, b = text.split(":")
        return RangeRef(_cell(a, sheet), _cell(b, sheet))
    return _cell(text, sheet)


def parse_formula(text: str) -> Node:
    """The formula (with or without its leading =) as a tree; raises :class:`UnsupportedFormulaError`."""
    if len(text) > MAX_FORMULA_CHARS:
        raise UnsupportedFormulaError("the formula is too long to check")
    return _Parser(text[1:] if text.startswith("=") else text).parse()


def shift(node: Node, rows: int, cols: int) -> Node:
    """``node`` as it reads when copied ``rows`` down and ``cols`` right (shared formulas): relative refs move."""
    if isinstance(node, CellRef):
        return CellRef(
            node.sheet,
            node.row if node.row_abs else node.row + rows,
            node.col if node.col_abs else node.col + cols,
            node.row_abs,
            node.col_abs,
        )
    if isinstance(node, RangeRef):
        first, last = shift(node.first, rows, cols), shift(node.last, rows, cols)
        assert isinstance(first, CellRef) and isinstance(last, CellRef)
        return RangeRef(first, last)
    if isinstance(node, tuple):
        return tuple(shift(part, rows, cols) if isinstance(part, (CellRef, RangeRef, tuple)) else part for part in node)
    return node


def _number(value: Value) -> float:
    """A value in arithmetic, as Excel takes it: empty is 0, TRUE is 1, numeric text is its number."""
    if value is None or value == "":
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, float):
        return value
    if isinstance(value, (int,)):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        raise UnsupportedFormulaError(f'"{value}" is text, not a number (the spreadsheet shows #VALUE!)') from None


def _text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return f"{value:.15g}"
    return str(value)


def _round(x: float, digits: float, mode: str) -> float:
    # Spreadsheets round to 15 significant digits first: ROUND(100*1.2345, 1) is 123.5, not 123.4.
    quantum = _Dec(1).scaleb(-int(digits))
    return float(_Dec(f"{x:.15g}").quantize(quantum, rounding=mode))


_AGGREGATES: dict[str, Callable[[list[float]], float]] = {
    "SUM": math.fsum,
    "PRODUCT": math.prod,
    "AVERAGE": lambda xs: math.fsum(xs) / len(xs) if xs else _fail("AVERAGE of no numbers (#DIV/0!)"),
    "MIN": lambda xs: min(xs) if xs else 0.0,
    "MAX": lambda xs: max(xs) if xs else 0.0,
    "COUNT": lambda xs: float(len(xs)),
}
_ROUNDING = {"ROUND": ROUND_HALF_UP, "ROUNDUP": ROUND_UP, "ROUNDDOWN": ROUND_DOWN}


def _fail(why: str) -> float:
    raise UnsupportedFormulaError(why)


class Evaluator:
    """Evaluates parsed formulas; ``cell(sheet, row, col)`` gives a referenced cell's value (computing it if needed)."""

    def __init__(
        self, cell: Callable[[str, int, int], Value], cells_of: Callable[[str, RangeRef], Iterable[Value]]
    ) -> None:
        self.cell = cell
        self.cells_of = cells_of

    def evaluate(self, node: Node, sheet: str) -> Value:
        if isinstance(node, (float, str, bool)):
            return node
        if isinstance(node, CellRef):
            return self.cell(node.sheet or sheet, node.row, node.col)
        if isinstance(node, RangeRef):
            raise UnsupportedFormulaError("a range outside a function (the spreadsheet shows #VALUE!)")
        assert isinstance(node, tuple)
        op = node[0]
        if op == "call":
            return self._call(str(node[1]), node[2], sheet)  # type: ignore[arg-type]
        if op == "neg":
            return -_number(self.evaluate(node[1], sheet))  # type: ignore[arg-type]
        if op == "pos":
            return _number(self.evaluate(node[1], sheet))  # type: ignore[arg-type]
        if op == "%":
            return _number(self.evaluate(node[1], sheet)) / 100  # type: ignore[arg-type]
        left = self.evaluate(node[1], sheet)  # type: ignore[arg-type]
        right = self.evaluate(node[2], sheet)  # type: ignore[arg-type]
        if op == "&":
            return _text(left) + _text(right)
        if op == "cmp":
            return self._compare(str(node[1]), left, self.evaluate(node[3], sheet))  # type: ignore[arg-type]
        a, b = _number(left), _number(right)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            if b == 0:
                raise UnsupportedFormulaError("a division by zero (the spreadsheet shows #DIV/0!)")
            return a / b
        if op == "^":
            try:
                result = a**b
            except (OverflowError, ZeroDivisionError):
                raise UnsupportedFormulaError("a power out of range (#NUM!)") from None
            if isinstance(result, complex):
                raise UnsupportedFormulaError("a power of a negative number (#NUM!)")
            return float(result)
        raise UnsupportedFormulaError(f'the operator "{op}"')

    def _compare(self, op: str, left: Value, right: Value) -> bool:
        a: float | str = _number(left) if not isinstance(left, str) else left.lower()
        b: float | str = _number(right) if not isinstance(right, str) else right.lower()
        if type(a) is not type(b):
            raise UnsupportedFormulaError("a comparison of text with a number")
        ops: dict[str, Callable[[object, object], bool]] = {
            "=": lambda x, y: x == y,
            "<>": lambda x, y: x != y,
            "<": lambda x, y: x < y,  # type: ignore[operator]
            ">": lambda x, y: x > y,  # type: ignore[operator]
            "<=": lambda x, y: x <= y,  # type: ignore[operator]
            ">=": lambda x, y: x >= y,  # type: ignore[operator]
        }
        return ops[op](a, b)

    def _numbers(self, args: tuple[Node, ...], sheet: str) -> list[float]:
        """Arguments of SUM and its kin: numbers in ranges count, text and empty cells in ranges do not."""
        numbers: list[float] = []
        for arg in args:
            if isinstance(arg, RangeRef):
                cells = self.cells_of(sheet, arg)
                if set(map(type, cells)) <= {float}:  # a column of numbers, the usual case: at C speed
                    numbers.extend(cells)  # type: ignore[arg-type]
                else:
                    numbers.extend(float(v) for v in cells if type(v) is float or type(v) is int)
            else:
                numbers.append(_number(self.evaluate(arg, sheet)))
        return numbers

    def _call(self, name: str, args: tuple[Node, ...], sheet: str) -> Value:
        if name in _AGGREGATES:
            return _AGGREGATES[name](self._numbers(args, sheet))
        if name == "IF":
            if len(args) not in (2, 3):
                raise UnsupportedFormulaError("IF with other than 2 or 3 arguments")
            test = self.evaluate(args[0], sheet)
            chosen = args[1] if _number(test) != 0 else (args[2] if len(args) == 3 else False)
            return self.evaluate(chosen, sheet)
        values = [_number(self.evaluate(a, sheet)) for a in args]
        if name in ("ABS", "INT", "SQRT") and len(values) == 1:
            x = values[0]
            if name == "ABS":
                return abs(x)
            if name == "INT":
                return float(math.floor(x))
            if x < 0:
                raise UnsupportedFormulaError("the square root of a negative number (#NUM!)")
            return math.sqrt(x)
        if name in _ROUNDING and len(values) in (1, 2):
            return _round(values[0], values[1] if len(values) == 2 else 0, _ROUNDING[name])
        raise UnsupportedFormulaError(f"the function {name}, which Amdahl Desk does not compute")


def references(node: Node) -> Iterator[CellRef | RangeRef]:
    """Every reference in ``node``."""
    if isinstance(node, (CellRef, RangeRef)):
        yield node
    elif isinstance(node, tuple):
        for part in node:
            if isinstance(part, (CellRef, RangeRef, tuple)):
                yield from references(part)
