"""Facts in the model, words in present: how many sentences a person would read the model still writes itself.

A *sentence* here is a string literal in ``amdahl_desk/model`` — a plain constant, or the literal parts of an
f-string joined (each field stands for one value, not a word) — with at least three words of two or more letters,
that is neither a docstring nor inside a ``raise`` statement (a refusal's words travel with its typed error). The
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
CEILING = 233  # the count today (302 before the fit sentences, import notes, analysis warnings, refusals naming flags and JSON moved)


def sentences(source: str) -> list[tuple[int, str]]:
    """(line, text) of each sentence in ``source``, as defined above."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            skip.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
            text = "".join(v.value if isinstance(v, ast.Constant) else " 0 " for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if len(WORD.findall(text)) >= 3:
            found.append((node.lineno, text))
    return found


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
'''
    assert [text for _, text in sentences(sample)] == [
        "the trace has no steps at all",
        "the GPU is idle  0  of its stretch",
    ]
