"""str methods, slicing, comparisons, conversions (PyTorch's test_jit string tests)."""

S = [("",), ("abc",), ("  Hello World  ",), ("a,b,,c",), ("ABC def",), ("12345",),
     ("\tx\ny\r\nz",), ("hello",), ("Mixed Case 42",), ("   ",)]

CASES = [
    ('''
def f(s: str) -> List[str]:
    return s.split()
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.split(",")
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.split(",", 1)
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.rsplit(",", 1)
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.rsplit()
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.split(None, 1)
''', S),
    ('''
def f(s: str) -> Tuple[str, str, str, str, str, str]:
    return s.strip(), s.lstrip(), s.rstrip(), s.strip("a "), s.lstrip(" H"), s.rstrip("d ")
''', S),
    ('''
def f(s: str) -> Tuple[Tuple[str, str, str], Tuple[str, str, str], Tuple[str, str, str]]:
    return s.partition(","), s.rpartition(","), s.partition("l")
''', [("a,b,c",), ("abc",), ("hello",)]),
    ('''
def f(s: str) -> Tuple[str, str, str]:
    return s.partition(",")
''', S),
    ('''
def f(s: str) -> Tuple[str, str, str]:
    return s.rpartition("l")
''', S),
    ('''
def f(s: str) -> List[int]:
    return [s.find("l"), s.rfind("l"), s.find("l", 3), s.find("l", 1, 3), s.rfind("x"),
            s.count("l"), s.count(""), s.count("l", 3), s.find(""), s.rfind("")]
''', S),
    ('''
def f(s: str) -> int:
    return s.index("l")
''', [("hello",), ("abc",)]),
    ('''
def f(s: str) -> int:
    return s.rindex("l")
''', [("hello",), ("abc",)]),
    ('''
def f(s: str) -> List[str]:
    return [s.replace("l", "L"), s.replace("l", "L", 1), s.replace("", "-"), s.replace(" ", "")]
''', S),
    ('''
def f(s: str) -> List[str]:
    return [s.zfill(8), s.center(11), s.center(12, "*"), s.ljust(9), s.rjust(9, "."),
            s.ljust(2), s.center(0)]
''', S + [("-42",), ("+7",)]),
    ('''
def f(s: str) -> List[str]:
    return [s.upper(), s.lower(), s.title(), s.swapcase(), s.capitalize(), s.casefold()]
''', S),
    ('''
def f(s: str) -> List[bool]:
    return [s.isdigit(), s.isalpha(), s.isalnum(), s.isspace(), s.islower(), s.isupper(),
            s.istitle(), s.isdecimal(), s.isnumeric(), s.isidentifier(), s.isprintable()]
''', S + [("_id1",), ("1a",), ("Title Case",)]),
    ('''
def f(s: str) -> List[bool]:
    return [s.startswith("He"), s.endswith("ld"), s.startswith(""), s.endswith("c", 0, 3),
            s.startswith("b", 1)]
''', S),
    ('''
def f(s: str) -> List[str]:
    return s.splitlines()
''', S + [("a\\n\\nb\\n",)]),
    ('''
def f(s: str) -> List[str]:
    return s.splitlines(True)
''', S),
    ('''
def f(s: str) -> str:
    return s.expandtabs()
''', [("a\\tb",), ("\\t\\tx",), ("ab\\tcd\\n\\te",)]),
    ('''
def f(s: str) -> str:
    return s.expandtabs(4)
''', [("a\\tb",), ("abcde\\tx",)]),
    ('''
def f(xs: List[str]) -> str:
    return "-".join(xs) + "|" + "".join(xs)
''', [(["a", "b", "c"],), ([],), (["x"],)]),
    ('''
def f(s: str) -> List[str]:
    return [s[1:], s[:-1], s[::2], s[::-1], s[1:4:2], s[-3:], s[10:], s[-100:2]]
''', S),
    ('''
def f(s: str, i: int) -> str:
    return s[i]
''', [("abc", 0), ("abc", -1), ("abc", 3)]),
    ('''
def f(a: str, b: str) -> List[bool]:
    return [a < b, a <= b, a > b, a >= b, a == b, a != b, a in b, a not in b]
''', [("a", "b"), ("abc", "abd"), ("", "x"), ("x", "x"), ("ab", "cabd")]),
    ('''
def f(s: str) -> List[int]:
    return [len(s), ord(s[0]) if len(s) > 0 else -1]
''', S),
    ('''
def f(i: int) -> str:
    return chr(i)
''', [(65,), (97,), (0x263A,)]),
    ('''
def f(s: str) -> str:
    out = ""
    for c in s:
        out = c + out
    return out
''', S),
    ('''
def f(s: str, n: int) -> str:
    return s * n + n * s
''', [("ab", 3), ("x", 0), ("y", -1)]),
    ('''
def f(s: str) -> int:
    return int(s)
''', [("12",), ("-3",), (" 7 ",), ("x",), ("0",), ("+5",)]),
    ('''
def f(s: str) -> float:
    return float(s)
''', [("1.5",), ("-2",), ("inf",), ("-inf",), ("1e3",), ("abc",), (" 3.25 ",)]),
    ('''
def f() -> List[str]:
    return [str(1), str(1.5), str(True), str(-0.0), str(1e20), str(1e-5), str(0.1),
            str(123456789.0), str(float("inf")), str(float("nan")), str([1, 2]), str((1, "a"))]
''', [()]),
    ('''
def f() -> List[str]:
    return [str(2.0), str(1.0/3.0), str(1e16), str(1e15), str(12345678901234567.0),
            str(0.0001), str(-1.25e-10)]
''', [()]),
    ('''
def f(s: str) -> bool:
    return bool(s)
''', S),
    ('''
def f(x: int) -> List[str]:
    return [hex(x), oct(x), bin(x)]
''', [(0,), (255,), (-10,)]),
    ('''
def f(s: str) -> str:
    return s.strip().lower().replace(" ", "_")
''', S),
    ('''
def f(a: str, b: str) -> str:
    c = a + b
    c += "!"
    return c
''', [("ab", "cd")]),
    ('''
def f(s: str) -> List[str]:
    return [c for c in s if c.isalpha()]
''', S),
    ('''
def f(s: str) -> List[str]:
    return list(s)
''', S),
    ('''
def f(s: str) -> str:
    return max(s.split()) if len(s.split()) > 0 else min("b", "a")
''', S),
    ('''
def f(s: str) -> List[str]:
    return sorted(s.split(), reverse=True)
''', S),
    ('''
def f(s: str, sub: str) -> List[int]:
    return [s.find(sub), s.count(sub), s.rfind(sub)]
''', [("aaaa", "aa"), ("abcabc", "bc"), ("", "")]),
    ('''
def f(s: str) -> str:
    return s.lstrip("0123456789")
''', [("123abc456",)]),
    ('''
def f(s: str) -> List[str]:
    return [s.removeprefix("ab"), s.removesuffix("yz")]
''', [("abcxyz",), ("q",)]),
    ('''
def f(s: str) -> List[str]:
    return s.split("ab")
''', [("xabyabz",), ("ab",), ("",)]),
    ('''
def f(s: str) -> List[str]:
    return s.split("")
''', [("abc",)]),
    ('''
def f(s: str) -> List[str]:
    return s.rsplit(" ", 2)
''', [("a b c d",), ("a",)]),
    ('''
def f(s: str) -> str:
    return s.title()
''', [("they're bill's friends",), ("hello WORLD 3rd",)]),
    ('''
def f(s: str, w: int) -> str:
    return s.zfill(w)
''', [("-1", 5), ("abc", 2), ("+12", 6), ("", 3)]),
    ('''
def f(s: str) -> List[str]:
    out: List[str] = []
    for i, c in enumerate(s):
        out.append(str(i) + c)
    return out
''', S),
    ('''
def f(s: str) -> str:
    return s.join(["1", "2", "3"])
''', [(", ",), ("",)]),
    ('''
def f(a: str) -> bool:
    return hash(a) == hash(a + "")
''', [("x",)]),
]
