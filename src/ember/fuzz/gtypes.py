"""The generator's type model: TorchScript types as small tuples, their annotations and
random values of them.

    INT, FLOAT, BOOL, STR             scalars (plain strings)
    ("list", T)  ("dict", K, V)  ("tuple", T1, T2, ...)  ("opt", T)

Every int the generated programs store stays within +-INT_BOUND (see gen_scalar), so
no arithmetic ever leaves int64: ember's documented OverflowError never triggers.
"""

from __future__ import annotations

import ast
import contextvars
import math

INT, FLOAT, BOOL, STR = "int", "float", "bool", "str"
SCALARS = (INT, FLOAT, BOOL, STR)
KEYS = (INT, STR)
"""Types the generator uses as dict keys."""

INT_BOUND = 10 ** 6
"""Every stored int lies in [-INT_BOUND, INT_BOUND]."""
STR_BOUND = 48
"""Longest string a variable holds (reassignments are sliced to it)."""
LIST_BOUND = 400
"""An upper bound on any list's length (appends happen in bounded loops only)."""

WORDS = ("", "a", "ab", "abc", "Hello", "x y", " pad ", "a,b,c", "42", "-7", "3.5", "é",
         "ß", "ǅx", "it's", 'q"uote', "tab\tnew\nline", "back\\slash", "MiXeD", "a b c",
         "zz", "1e3", "UPPER", "0")


NATIVE = contextvars.ContextVar("ember_fuzz_native", default=False)
"""True while generating a program of the native profile: only types the LLVM backend
compiles natively (int, float, bool, lists, tuples, Optional; no str, no dict)."""


def allowed(types: tuple) -> tuple:
    """`types` without str in the native profile (unchanged, and the same draws, otherwise)."""
    return tuple(t for t in types if t != STR) if NATIVE.get() else types


def native() -> bool:
    """A program of the native profile is being generated: productions of what the native
    tier documents as not native yet (docs/architecture.md) give way to others."""
    return NATIVE.get()


def avoided(t) -> bool:
    """In the native profile: t holds a str or a dict somewhere."""
    if not NATIVE.get():
        return False
    if isinstance(t, str):
        return t == STR
    return t[0] == "dict" or (t[0] != "fn" and any(avoided(x) for x in t[1:]))


def list_of(t):
    return ("list", t)


def dict_of(k, v):
    return ("dict", k, v)


def tuple_of(*ts):
    return ("tuple",) + tuple(ts)


def opt_of(t):
    return ("opt", t)


def kind(t) -> str:
    """'int', 'float', 'bool', 'str', 'list', 'dict', 'tuple' or 'opt'."""
    return t if isinstance(t, str) else t[0]


def ann_text(t) -> str:
    """The annotation of t in the spelling the generated programs import from typing."""
    k = kind(t)
    if k in SCALARS:
        return k
    if k == "list":
        return f"List[{ann_text(t[1])}]"
    if k == "dict":
        return f"Dict[{ann_text(t[1])}, {ann_text(t[2])}]"
    if k == "tuple":
        return f"Tuple[{', '.join(ann_text(x) for x in t[1:])}]"
    return f"Optional[{ann_text(t[1])}]"


def ann(t) -> ast.expr:
    """t's annotation as an AST expression."""
    return ast.parse(ann_text(t), mode="eval").body


def random_type(rng, depth: int = 2, optional: bool = True):
    """A random type; containers nest at most `depth` deep."""
    r = rng.random()
    if depth <= 0 or r < 0.55:
        return rng.choice(allowed((INT, INT, FLOAT, BOOL, STR, STR)))
    if r < 0.75 or (r < 0.85 and NATIVE.get()):
        return list_of(random_type(rng, depth - 1, False))
    if r < 0.85:
        return dict_of(rng.choice(KEYS), random_type(rng, depth - 1, False))
    if r < 0.95 or not optional:
        n = rng.randint(2, 3)
        return tuple_of(*(random_type(rng, depth - 1, False) for _ in range(n)))
    return opt_of(rng.choice(allowed((INT, FLOAT, STR))))


def random_int(rng) -> int:
    r = rng.random()
    if r < 0.7:
        return rng.randint(-10, 10)
    if r < 0.95:
        return rng.randint(-1000, 1000)
    return rng.randint(-INT_BOUND, INT_BOUND)


def random_float(rng) -> float:
    r = rng.random()
    if r < 0.15:
        return rng.choice((0.0, -0.0, 0.5, 1.0, -1.5, 1e-7, 1e10, 2.5e-3))
    if r < 0.17:
        return rng.choice((math.inf, -math.inf, math.nan))
    return round(rng.uniform(-100.0, 100.0), rng.randint(0, 4))


def random_str(rng) -> str:
    if rng.random() < 0.6:
        return rng.choice(WORDS)
    return "".join(rng.choice("abcAB 1-_,.é") for _ in range(rng.randint(0, 7)))


def random_value(rng, t):
    """A random value of type t (lists and dicts hold at most 5 items)."""
    k = kind(t)
    if k == INT:
        return random_int(rng)
    if k == FLOAT:
        return random_float(rng)
    if k == BOOL:
        return rng.random() < 0.5
    if k == STR:
        return random_str(rng)
    if k == "list":
        return [random_value(rng, t[1]) for _ in range(rng.randint(0, 5))]
    if k == "dict":
        return {random_value(rng, t[1]): random_value(rng, t[2]) for _ in range(rng.randint(0, 4))}
    if k == "tuple":
        return tuple(random_value(rng, x) for x in t[1:])
    return None if rng.random() < 0.35 else random_value(rng, t[1])


def literal(v) -> str:
    """Python source for a value (floats like inf and nan as float('inf'))."""
    if isinstance(v, float) and not math.isfinite(v):
        return f"float({str(v)!r})"
    if isinstance(v, list):
        return "[" + ", ".join(literal(x) for x in v) + "]"
    if isinstance(v, tuple):
        inner = ", ".join(literal(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{literal(a)}: {literal(b)}" for a, b in v.items()) + "}"
    return repr(v)
