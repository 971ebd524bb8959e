"""Numbers: math.*, builtins over int/float/bool mixes, conversions, operators."""

F1 = ["ceil", "floor", "fabs", "sqrt", "exp", "log", "log10", "log1p", "log2", "expm1",
      "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
      "atanh", "erf", "erfc", "gamma", "lgamma", "trunc", "degrees", "radians", "isnan",
      "isinf", "isfinite", "factorial"]
VALS = [(-0.5,), (0.0,), (0.4,), (0.5,), (1.0,), (2.5,), (10.0,), (-3.0,), (float("inf"),),
        (float("nan"),)]
INTS = [(-2,), (0,), (1,), (3,), (10,)]

_RET = {"ceil": "int", "floor": "int", "trunc": "int", "isnan": "bool", "isinf": "bool",
        "isfinite": "bool", "factorial": "int"}


def _one(fn: str, ty: str) -> tuple:
    ret = _RET.get(fn, "float")
    src = f"\ndef f(a: {ty}) -> {ret}:\n    return math.{fn}(a)\n"
    return src, (INTS if ty == "int" else VALS)


CASES = [_one(fn, ty) for fn in F1 for ty in ("float", "int") if fn != "factorial" or ty == "int"]

F2 = ["atan2", "pow", "fmod", "copysign", "hypot", "ldexp", "remainder", "isclose", "dist"]
PAIRS = [(1.0, 2.0), (-1.5, 0.5), (0.0, -1.0), (3.0, 0.0), (2.0, 10.0)]

CASES += [
    (f"\ndef f(a: float, b: float) -> float:\n    return math.{fn}(a, b)\n", PAIRS)
    for fn in ["atan2", "pow", "fmod", "copysign", "hypot", "remainder"]
]
CASES += [
    ('''
def f(a: float, b: int) -> float:
    return math.ldexp(a, b)
''', [(1.5, 3), (-1.0, -2)]),
    ('''
def f(a: int, b: int) -> List[int]:
    return [math.gcd(a, b), a // b, a % b, a ** 2, -a // b, abs(a), a << 2, a >> 1, a & b,
            a | b, a ^ b, ~a]
''', [(12, 8), (-7, 3), (7, -3)]),
    ('''
def f(a: int, b: float) -> List[float]:
    return [a + b, a - b, a * b, a / b, b / a, a // b, a % b, b % a, a ** b, b ** a]
''', [(3, 2.0), (-3, 2.0), (2, -1.5)]),
    ('''
def f(a: int, b: int) -> List[float]:
    return [a / b, float(a) / b, a ** -1]
''', [(3, 2), (-7, 2)]),
    ('''
def f(a: int, b: int) -> int:
    return a ** b
''', [(2, 10), (3, 0), (-2, 3)]),
    ('''
def f(a: int, b: int) -> float:
    return a ** b
''', [(2, -1),]) if False else ('''
def f(a: float) -> List[int]:
    return [int(a), round(a), math.floor(a), math.ceil(a), math.trunc(a)]
''', [(2.5,), (-2.5,), (3.5,), (0.49999,), (-0.5,)]),
    ('''
def f(a: float, n: int) -> float:
    return round(a, n)
''', [(2.675, 2), (1.23456, 3), (-0.5, 0), (1234.5, -2)]),
    ('''
def f(a: bool, b: bool) -> List[int]:
    return [a + b, a * 3, int(a) - int(b), int(a & b), int(a | b), int(a ^ b)]
''', [(True, False), (True, True)]),
    ('''
def f(a: bool, b: bool) -> List[bool]:
    return [a and b, a or b, not a, a == b, a & b, a | b, a ^ b, a < b]
''', [(True, False), (False, False)]),
    ('''
def f(a: int) -> List[float]:
    return [float(a), a * 1.0, a + 0.5]
''', [(3,), (-2,)]),
    ('''
def f(x: float) -> List[bool]:
    return [x == 1, x > 0, x != 0.5, bool(x), x is None]
''', [(1.0,), (0.0,)]) if False else ('''
def f(x: float) -> List[bool]:
    return [x == 1, x > 0, x != 0.5, bool(x), 1 < x < 3]
''', [(1.0,), (0.0,), (2.0,)]),
    ('''
def f() -> List[float]:
    return [math.pi, math.e, math.inf, -math.inf, math.tau]
''', [()]),
    ('''
def f() -> bool:
    return math.isnan(math.nan)
''', [()]),
    ('''
def f(a: int, b: int) -> Tuple[int, int, int, int]:
    return min(a, b), max(a, b), abs(a - b), pow(a, 2)
''', [(3, 5), (-2, -9)]),
    ('''
def f(a: float, b: float) -> Tuple[float, float, float]:
    return min(a, b), max(a, b), pow(a, b)
''', [(3.0, 2.0), (2.0, -0.5)]),
    ('''
def f(a: int, b: int, c: int) -> int:
    return pow(a, b, c)
''', [(3, 4, 5), (2, 10, 7)]),
    ('''
def f(x: int) -> bool:
    return bool(x)
''', [(0,), (-3,)]),
    ('''
def f(x: float) -> int:
    return int(x)
''', [(float("inf"),), (float("nan"),), (1e15,)]),
    ('''
def f(x: int) -> str:
    return str(x) + str(-x) + str(x * 1000000000)
''', [(123,)]),
    ('''
def f(x: float) -> float:
    return abs(x) + -x
''', [(-1.5,), (0.0,)]),
    ('''
def f(x: float) -> bool:
    return x.is_integer()
''', [(1.0,), (1.5,)]),
    ('''
def f(x: int, y: int) -> bool:
    return x is y or x == y
''', [(1, 1)]) if False else ('''
def f(x: int) -> int:
    x += 1
    x -= 2
    x *= 3
    x //= 2
    x %= 7
    x **= 2
    x <<= 1
    x >>= 1
    x |= 8
    x &= 15
    x ^= 3
    return x
''', [(5,), (-5,)]),
    ('''
def f(x: float) -> float:
    x += 1
    x -= 2.5
    x *= 3
    x /= 2
    x //= 1.5
    x %= 7
    x **= 2
    return x
''', [(5.0,), (-5.0,)]),
    ('''
def f(a: float, b: float) -> float:
    return a % b
''', [(5.5, 2.0), (-5.5, 2.0), (5.5, -2.0), (-0.0, 1.0)]),
    ('''
def f(a: float, b: float) -> float:
    return a // b
''', [(5.5, 2.0), (-5.5, 2.0), (1.0, 0.0)]),
    ('''
def f(x: int) -> float:
    return math.sqrt(x) + math.exp(x) + math.log(x + 1)
''', [(4,)]),
    ('''
def f(x: float) -> Tuple[float, float]:
    return math.modf(x)
''', [(2.5,), (-1.25,)]),
    ('''
def f(x: float) -> Tuple[float, int]:
    return math.frexp(x)
''', [(8.0,), (0.3,)]),
    ('''
def f(a: float, b: float) -> bool:
    return math.isclose(a, b)
''', [(1.0, 1.0 + 1e-10), (1.0, 1.1)]),
    ('''
def f(xs: List[float]) -> float:
    return math.fsum(xs) + math.prod(xs)
''', [([0.1, 0.2, 0.3],)]),
    ('''
def f(x: int, y: int) -> int:
    return math.comb(x, y) + math.perm(x, y) + math.isqrt(x)
''', [(10, 3)]),
    ('''
def f(a: int, b: int) -> int:
    return a // b
''', [(7, 0)]),
    ('''
def f(a: float) -> List[float]:
    return [a * 0.1, a / 3, 1e308 * a, -a * 0.0]
''', [(3.0,), (10.0,)]),
    ('''
def f(a: int) -> int:
    return a * 4611686018427387904
''', [(1,), (-2,)]),
    ('''
def f(x: float) -> float:
    return float(int(x))
''', [(3.7,)]),
    ('''
def f() -> List[float]:
    return [float("inf"), float("-inf"), float("1e-3"), float(" 2 "), float(True), float(3)]
''', [()]),
    ('''
def f() -> List[int]:
    return [int("0x10", 16), int("11", 2), int(True), int(-3.9), int("  42  ")]
''', [()]),
]
