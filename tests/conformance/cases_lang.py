"""Corners a checkScript suite meets: join of any iterable, a conditional expression typed by
its context, str.format of a run-time format string, classmethods, order statistics."""

CASES = [
    ('''
def f(xs: List[str], d: Dict[str, int]):
    return (", ".join(reversed(xs)), "-".join(d), "".join(map(lambda s: s.upper(), xs)),
            "+".join(x for x in xs if x), ":".join("abc"))
''', [(["a", "b", ""], {"k": 1, "j": 2})]),
    ('''
def f(flag: bool):
    x: Union[int, str] = 1 if flag else "a"
    y: Optional[int] = 3 if flag else None
    if isinstance(x, int):
        return x + 1, y
    return len(x), y
''', [(True,), (False,)]),
    ('''
def f(s: str, n: int):
    fmt = s + " {} {x:>4}"
    return fmt.format(n, x="q"), ("{:" + str(n) + "d}").format(7), "{0}{0}".format(s)
''', [("a", 3)]),
    ('''
def f(fmt: str):
    return fmt.format(1, 2)
''', [("{}-{}",), ("{2}",), ("{:s}",)]),
    ('''
class Counter:
    START = 10

    def __init__(self, n: int):
        self.n = n

    @classmethod
    def fresh(cls):
        return cls(cls.START)

    def bump(self) -> int:
        self.n += 1
        return self.n


def f(k: int):
    c = Counter.fresh()
    for _ in range(k):
        c.bump()
    return c.n
''', [(3,)]),
    ('''
def f():
    x = torch.tensor([[3.0, 1.0, 2.0], [5.0, 5.0, 4.0]])
    return x.kthvalue(2, 1), x.median(1), x.median(), torch.kthvalue(x, 1, 0, True)
''', [()]),
    ('''
def f(x: float):
    return "%s %s %r" % (x, [x], (x,)), "%e %E %G" % (x, x, x), "%10.4f|" % x, "%+.2e" % -x
''', [(1234.5678,), (1e-10,)]),
    ('''
def f(x: int):
    w = 6
    return f"{x:{w}d}|{x:<{w}}|{'ab':>{w}}|{x:0{w}.2f}", f"{{x}}", f"{x!s:>4}", f"{[x, x]}"
''', [(42,)]),
    ('''
def f(s: str):
    return "%s" % s, "%r" % s, "%5.2s" % s, "%%d" % () if False else "x"
''', [('hello',)]),
    ('''
def f(x: int):
    return "%d %d" % (x,)
''', [(1,)]),
    ('''
def f(x: bool):
    return "%s %d %r" % (x, x, x), f"{x} {x:d} {x!r}", str(x), "{:>6}".format(x)
''', [(True,)]),
    ('''
def f(x: int):
    return format(x, "b"), format(x, ">8,d"), format(3.14159, ".2f"), format("s", "^5"), format(x), format(-x, "+")
''', [(1234,)]),
    ('''
def total(*args: int) -> int:
    return sum(args)


def f(n: int):
    return total(), total(n), total(n, n), sum(())
''', [(2,)]),
]
