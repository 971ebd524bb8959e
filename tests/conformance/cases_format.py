"""String formatting: %-formatting, str.format, f-strings with format specs."""

CASES = [
    ('''
def f(x: int) -> str:
    return "%d" % x
''', [(5,), (-3,), (0,)]),
    ('''
def f(x: float) -> str:
    return "%f %.2f %.0f %e %.3e %g %G %E" % (x, x, x, x, x, x, x, x)
''', [(3.14159,), (-0.5,), (1e10,), (0.0,), (123456.789,)]),
    ('''
def f(x: int) -> str:
    return "%x %X %o %5d %-5d| %05d %+d %i %c" % (x, x, x, x, x, x, x, x, x)
''', [(65,), (255,)]),
    ('''
def f(s: str) -> str:
    return "hello %s!" % s
''', [("world",), ("",)]),
    ('''
def f(s: str, n: int) -> str:
    return "%s has %d items (%r)" % (s, n, s)
''', [("box", 3)]),
    ('''
def f(x: float) -> str:
    return "%s %r %d" % (x, x, x)
''', [(1.5,), (2.0,), (-3.7,)]),
    ('''
def f(xs: List[int]) -> str:
    return "%s" % (xs,)
''', [([1, 2],)]),
    ('''
def f() -> str:
    return "100%% done %s" % "ok"
''', [()]),
    ('''
def f(b: bool) -> str:
    return "%s %d" % (b, b)
''', [(True,), (False,)]),
    ('''
def f(a: int, b: str) -> str:
    return "{} and {}".format(a, b)
''', [(1, "x")]),
    ('''
def f(a: int, b: float) -> str:
    return "{0} {1} {0}".format(a, b)
''', [(1, 2.5)]),
    ('''
def f(a: float) -> str:
    return "{:.2f} {:10.3f} {:<8} {:>8} {:^8} {:e}".format(a, a, a, a, a, a)
''', [(3.14159,), (-2.0,)]),
    ('''
def f(a: int) -> str:
    return "{:05d} {:x} {:X} {:b} {:o} {:,} {:+d} {:#x}".format(a, a, a, a, a, a, a, a)
''', [(255,), (1234567,), (-42,)]),
    ('''
def f(a: int, s: str) -> str:
    return f"{a} {s} {a + 1} {s!r} {a:03d} {s:>6} {a * 2.5:.1f}"
''', [(7, "hi")]),
    ('''
def f(x: float) -> str:
    return f"{x:.3f}|{x:8.2f}|{x:<10}|{x:e}|{x:g}|{x:%}"
''', [(0.125,), (1234.5,)]),
    ('''
def f(xs: List[int], d: Dict[str, int]) -> str:
    return f"{xs} {d} {len(xs)}"
''', [([1, 2], {"a": 1})]),
    ('''
def f(x: int) -> str:
    return f"{x:_} {x:,d} {x:>+8d} {x:=+8d} {x:*^9}"
''', [(1234567,), (-5,)]),
    ('''
def f(t: Tuple[int, str]) -> str:
    return "{}".format(t)
''', [((1, "a"),)]),
    ('''
def f(x: Optional[int]) -> str:
    return "{}".format(x)
''', [(None,), (3,)]),
    ('''
def f(x: float) -> str:
    return str(x) + " " + repr(x)
''', [(0.1,), (1e-7,), (1e22,), (5.0,)]),
    ('''
def f(a: int, b: int) -> str:
    return "%d/%d = %.3f" % (a, b, a / b)
''', [(1, 3), (10, 4)]),
    ('''
def f(s: str) -> str:
    return "%10s|%-10s|%.2s" % (s, s, s)
''', [("abc",)]),
    ('''
def f(x: float) -> str:
    return "%5.1f|%-8.3f|%+.2f|%08.2f" % (x, x, x, x)
''', [(3.14159,), (-1.0,)]),
    ('''
def f(a: str, b: str) -> str:
    return "{a}-{b}".format(a=a, b=b)
''', [("x", "y")]),
    ('''
def f(x: int) -> str:
    return "%s" % x
''', [(3,)]),
    ('''
def f(x: float) -> str:
    return "%d" % x
''', [(3.9,), (-3.9,)]),
    ('''
def f(x: float) -> str:
    return "{}".format(x)
''', [(3.0,), (0.1,)]),
    ('''
def f(x: bool) -> str:
    return f"{x} {x!s} {int(x)}"
''', [(True,)]),
    ('''
def f(x: int) -> str:
    return "%c" % x
''', [(97,)]),
    ('''
def f(s: str) -> str:
    return "%c" % s
''', [("z",)]),
    ('''
def f(xs: List[str]) -> str:
    return f"{xs[0]!r:>10}"
''', [(["ab"],)]),
    ('''
def f(x: float) -> str:
    return "{:.0%}".format(x)
''', [(0.256,)]),
    ('''
def f(a: int) -> str:
    w = 6
    return f"{a:{w}d}|{a:>{w}}"
''', [(42,)]),
    ('''
def f(x: Tensor) -> str:
    return "%d" % x.item()
''', [()]) if False else ('''
def f() -> str:
    x = torch.tensor(3)
    return "%d %s" % (x.item(), x.item())
''', [()]),
    ('''
def f() -> str:
    return "{} {}".format(1, 2) + "{}".format("a") + "{{}}".format()
''', [()]),
    ('''
def f(a: int) -> str:
    return "value: %(v)d" % {"v": a}
''', [(3,)]),
    ('''
def f(a: float) -> str:
    return "%.3g|%10.4g|%-10.2e|" % (a, a, a)
''', [(0.000012345,), (123456789.0,)]),
    ('''
def f() -> str:
    return "%s %s" % ("a", 1) + "%s" % (None,)
''', [()]),
    ('''
def f(a: int, b: float, c: str) -> str:
    return "a=%s b=%s c=%s" % (a, b, c)
''', [(1, 2.0, "x")]),
]
