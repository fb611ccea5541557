"""Facts in the model, words in present: how many sentences a person would read the model still writes itself.

A *sentence* here is a string literal in ``amdahl_desk/model`` — a plain constant, or the literal parts of an
f-string joined (each field stands for one value, not a word) — with at least three words of two or more letters,
that is neither a docstring (a module's, class's or function's, or an attribute's: the string right after an
assignment) nor inside a ``raise`` statement (a refusal's words travel with its typed error). Nor are these words a
person reads: a ``__repr__``'s (a programmer's), a key (a string that is an identifier, such as
``"gpu_price_per_hour"`` or ``"launch_queue_waits"``) and a pattern (anything inside the pattern argument of ``re.compile`` or the subscripts of ``np.einsum``). The
count may only fall: a new warning, note or phrase is a typed record the model returns and ``present/`` words.
The aim is 40 (docs/ARCHITECTURE.md, "Where a new sentence goes").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import amdahl_desk

MODEL = Path(amdahl_desk.__file__).parent / "model"
WORD = re.compile(r"[A-Za-z]{2,}")
# The count today: 302 before the fit sentences, import notes, analysis warnings, refusals naming flags and JSON
# moved; 233 before keys, attributes' docstrings and patterns were recognised as no words a person reads; 166
# before the settings rows, import origins, comparisons and fit gaps became typed facts worded in present; 82
# before End to end's key had one home (it was spelled out eleven times); 71 before a profile's and its settings'
# refusals became typed (``Problem.of(Refusal…)``, worded by present/refusals.py); 38 before the objectives' and the
# load objective's notes became typed the same way; 34 before the measured runs' refusals did; 30 before a name's
# line break did.
CEILING = 28


def sentences(source: str) -> list[tuple[int, str]]:
    """(line, text) of each sentence in ``source``, as defined above."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__repr__":  # a programmer's, not a person's
            skip.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.Raise) or _is_pattern_call(node):
            skip.update(id(sub) for sub in ast.walk(node if isinstance(node, ast.Raise) else node.args[0]))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
            for before, after in zip(node.body, node.body[1:], strict=False):  # an attribute's docstring
                if (
                    isinstance(before, (ast.Assign, ast.AnnAssign))
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    skip.add(id(after.value))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
            text = "".join(v.value if isinstance(v, ast.Constant) else " 0 " for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not node.value.isidentifier():
            text = node.value
        else:
            continue
        if len(WORD.findall(text)) >= 3:
            found.append((node.lineno, text))
    return found


def _is_pattern_call(node: ast.AST) -> bool:
    """``re.compile(pattern, ...)`` or ``np.einsum(subscripts, ...)``: its first argument is a pattern, not words."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute)):
        return False
    owner = node.func.value
    name = owner.id if isinstance(owner, ast.Name) else ""
    return (name, node.func.attr) in {("re", "compile"), ("np", "einsum")}


def count_in(folder: Path) -> dict[str, int]:
    out = {}
    for path in sorted(folder.rglob("*.py")):
        if found := sentences(path.read_text()):
            out[path.relative_to(folder).as_posix()] = len(found)
    return out


def test_the_model_writes_no_more_sentences_than_before():
    per_module = count_in(MODEL)
    total = sum(per_module.values())
    print(f"sentences in the model outside raise: {total}")
    assert total <= CEILING, sorted(per_module.items(), key=lambda kv: -kv[1])[:10]


def test_the_count_sees_what_it_means():
    sample = '''
"""A docstring, not counted."""
WARN = "the trace has no steps at all"
SHORT = "ms"
def f(x):
    """Nor this one."""
    note = f"the GPU is idle {x:.0%} of its stretch"
    raise ValueError("a refusal is worded with its error")
KEY = "launch_queue_waits"
LIMIT = 1000
"""An attribute's docstring, not counted."""
PATTERN = re.compile(r"all_?reduce|all_?gather|reduce_?scatter", re.IGNORECASE)
SUM = np.einsum("ij,jk,ik->i", a, b, c)
LABEL = "launch queue waits"
SPLIT = re.split(r"all_?reduce|all_?gather|reduce_?scatter", text)
class Run:
    def __repr__(self):
        return f"Run(n={self.n}, time={self.time}, unit={self.unit})"
'''
    assert sorted(text for _, text in sentences(sample)) == [
        "all_?reduce|all_?gather|reduce_?scatter",  # only re.compile's argument is known to be a pattern
        "launch queue waits",
        "the GPU is idle  0  of its stretch",
        "the trace has no steps at all",
    ]
