"""String formatting forms from PyTorch's formatting tests and CPython's: nested format
specs, = and !r/!s in f-strings, %-formatting flags, index and attribute lookups in
str.format fields, format() specs, dtypes formatted."""

import torch
CASES = [
('''
def g(s: str, n: int, x: float):
    w = 8
    return f"{s:>{w}}|{n:+d}|{x:{w}.3f}|{n=}|{x!r}|{s!s:<5}|{n:b}|{n:o}|{n:X}|{x:e}|{x:g}|{-x:08.2f}"
''', [("ab", 42, 3.14159), ("", -7, -0.5)]),
('''
def g(xs: List[int], d: Dict[str, int]):
    return "{0[1]} {1[k]} {0}".format(xs, d), "{:>6}".format("x"), "{!r}".format("q"), "%-6s|%5.1f|%x|%o|%e|%r|%c|%%" % ("ab", 2.25, 255, 8, 12345.678, "s", 65)
''', [([1, 2], {"k": 3})]),
('''
def g(n: int, x: float):
    return "%d %i %5d %-5d| %05d %+d %.3d" % (n, n, n, n, n, n, n), "%s %s" % (x, [x]), "%10.4s|" % "abcdefg", "%(a)s" % {"a": 1} if False else ""
''', [(42, 1.5), (-3, 1e20)]),
('''
def g(x: float, n: int):
    return format(x, ".2%"), format(n, ","), format(n, "_x"), format(x, "^10.1f"), f"{n:,}", f"{x:,.2f}", f"{1234567.891:_.1f}"
''', [(0.1234, 1234567), (-1.0, -5)]),
('''
def g(s: str):
    return s.format(1, 2), "{} {}".format(*[3, 4]), "{a}-{b}".format(a=1, b="x"), "{:.{p}f}".format(3.14159, p=2)
''', [("{1}{0}",)]),
('''
def g(x: complex, t: Tensor):
    return f"{x:.2f}", str(t.dtype), f"{t.dtype}", "{}".format(t.dtype), f"{t.dtype!r}"
''', [(1 + 2j, torch.zeros(2, 3))]),
]
CASES += [
('''
class P:
    def __init__(self, x: int, ys: List[int]):
        self.x = x
        self.ys = ys

def g(n: int):
    p = P(n, [n, n + 1])
    return "{0.x}|{0.ys[1]}|{p.x:>4}".format(p, p=p), "{d[a]}{d[b]}".format(d={"a": 1, "b": 2})
''', [(3,)]),
]
