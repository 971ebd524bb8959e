"""str methods with keyword arguments, tuples of prefixes, negative bounds."""

S = [("a b  c",), ("hello world",), ("",), ("xxyxx",)]

CASES = [
    ('''
def f(s: str) -> List[str]:
    return s.split(maxsplit=1)
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.split(" ", maxsplit=1) + s.rsplit(sep=" ", maxsplit=1)
''', S),
    ('''
def f(s: str) -> List[bool]:
    return [s.startswith(("he", "a")), s.endswith(("ld", "c")), s.startswith("l", 2, 4)]
''', S),
    ('''
def f(s: str) -> List[int]:
    return [s.find("x", -3), s.rfind("x", 0, -1), s.count("x", 1, 3), s.find("l", -100, 100)]
''', S),
    ('''
def f(s: str) -> List[str]:
    return [s.strip(None), s.lstrip(None), s.rstrip("x"), s.center(9, "*"), s.ljust(width=5) if False else s.ljust(5, "-")]
''', S),
    ('''
def f(s: str) -> str:
    out = ""
    for c in reversed(s):
        out += c
    return out
''', S),
    ('''
def f(s: str) -> List[str]:
    return [s.replace("x", "y", -1), s.replace("x", "", 2), s.title(), s.upper().lower()]
''', S),
    ('''
def f(s: str) -> Tuple[str, int, bool]:
    return min(s) if s else "", len(s.splitlines()), s.isascii()
''', S),
    ('''
def f(s: str) -> List[str]:
    return [c.upper() if i % 2 == 0 else c for i, c in enumerate(s)]
''', S),
    ('''
def f(s: str, t: str) -> List[bool]:
    return [s < t, s + t == t + s, s * 2 in t * 3]
''', [("ab", "ba"), ("", "x")]),
    ('''
def f(s: str) -> int:
    return s.index("x", 1)
''', [("xxyxx",), ("abc",)]),
    ('''
def f(s: str) -> str:
    return s[::-1][1:] + s[-1:] * 2
''', S),
    ('''
def f(x: int) -> str:
    return "{:>{}}".format(x, 6) if False else "{0:>6}|{0:<6}|{0:^6}".format(x)
''', [(42,)]),
    ('''
def f(n: int) -> str:
    return "".join([str(i) for i in range(n)]) + ",".join(["a"] * n)
''', [(4,), (0,)]),
    ('''
def f(s: str) -> Dict[str, int]:
    d: Dict[str, int] = {}
    for ch in s:
        if ch.isalpha():
            d[ch] = d.get(ch, 0) + 1
    return d
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.partition(" ") [::2] if False else [s.partition(" ")[0], s.rpartition(" ")[2]]
''', S),
    ('''
def f(a: str, b: str) -> int:
    return ord(a) - ord(b)
''', [("a", "b"), ("z", "a")]),
    ('''
def f(s: str) -> str:
    return s.swapcase().capitalize().zfill(12)
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.splitlines(keepends=True)
''', [("a\\nb\\r\\nc",)]),
    ('''
def f(s: str) -> float:
    return float(s.strip()) * 2
''', [(" 1.5 ",), ("-2e-3",)]),
]
