"""No user input makes ember's frontend crash: mutated corpus programs either compile to IR
that verifies and round-trips, or raise an ember CompileError (never an AttributeError,
KeyError, RecursionError... from the compiler itself)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ember.errors import CompileError
from ember.frontend import compile_source
from ember.ir import parse_module, print_module, verify_module

PROGRAMS = sorted((Path(__file__).resolve().parents[2] / "corpus" / "programs").glob("*.py"))
TYPES = ["int", "float", "str", "bool", "None", "List[int]", "Optional[int]", "Dict[str, int]",
         "Tuple[int, str]", "Union[int, str]", "List[str]", "Optional[str]"]
EXPRS = ["None", "1", "2.5", "'s'", "[]", "{}", "(1, 'a')", "[1, 2]", "x", "True", "-1",
         "{'a': 1}", "len", "lambda q: q", "xs[0]", "not x", "x if x else None"]
SNIPPETS = [
    "try:\n    {v} = {w}\nexcept ValueError:\n    pass",
    "try:\n    {v} = {w}\nexcept Exception as e:\n    raise\nfinally:\n    pass",
    "for _q in range(3):\n    {v} = {w}\n    break",
    "while {v}:\n    {v} = {w}\n    continue",
    "if {v} is None:\n    return {w}",
    "if isinstance({v}, int):\n    {v} = {w}",
    "{v} = [{w} for _k in {v}]",
    "{v}, {w} = {w}, {v}",
    "{v} += {w}",
    "{v}.{w} = {w}",
    "{v}[{w}] = {v}",
    "del {v}[{w}]",
    "assert {v}, {w}",
    "print({v}, {w}, sep='')",
    "{v} = lambda: {w}",
    "def _inner(_a: int) -> int:\n    return _a + {w}\n{v} = _inner({v})",
    "{v} = f'{{{v}}} {{{w}:>3}}'",
    "{v} = sorted({v}, key=lambda _z: _z)",
    "{v} = max({v}, key=len, default={w})",
    "{v}: Optional[int] = {w}",
    "{v} = None\nfor _j in range(2):\n    {v} = {w}",
]


def _source(path: Path) -> str:
    return re.split(r"\n(?:CASES|ENTRY) =", path.read_text())[0]


def mutate(src: str, rng: random.Random) -> str:
    lines = src.split("\n")
    idx = [i for i, line in enumerate(lines) if line.startswith(" ") and line.strip()]
    if not idx:
        return src
    i = rng.choice(idx)
    line = lines[i]
    indent = line[:len(line) - len(line.lstrip())]
    names = sorted(set(re.findall(r"\b[a-z_]\w*\b", src))) or ["x"]
    kind = rng.randrange(7)
    if kind == 0:
        toks = list(re.finditer(r"\b(int|float|str|bool|List\[\w+\]|Optional\[\w+\])\b", src))
        if toks:
            m = rng.choice(toks)
            return src[:m.start()] + rng.choice(TYPES) + src[m.end():]
    elif kind in (1, 2):
        toks = list(re.finditer(r"\b\d+\b|\b[a-z_]\w*\b", line))
        if toks:
            m = rng.choice(toks)
            new = rng.choice(names) if kind == 1 else rng.choice(EXPRS)
            lines[i] = line[:m.start()] + new + line[m.end():]
    elif kind == 3 and not line.rstrip().endswith(":"):
        lines[i] = indent + rng.choice(["pass", "return", "break", "continue", "raise"])
    elif kind == 4:
        del lines[i]
    else:
        snip = rng.choice(SNIPPETS).format(v=rng.choice(names), w=rng.choice(names))
        lines[i:i] = [indent + s for s in snip.split("\n")]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(4))
def test_mutated_programs_never_crash_the_frontend(seed):
    rng = random.Random(seed)
    sources = [_source(p) for p in PROGRAMS if "import torch" not in p.read_text()]
    if not sources:
        pytest.skip("no corpus programs")
    for _ in range(60):
        src = rng.choice(sources)
        for _ in range(rng.randrange(1, 3)):
            src = mutate(src, rng)
        try:
            m = compile_source(src, "mutant.py")
        except CompileError as e:
            assert e.line is not None or e.span is None
            str(e)  # rendering must work too
            continue
        verify_module(m)
        text = print_module(m)
        assert print_module(parse_module(text)) == text
