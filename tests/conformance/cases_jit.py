"""torch.jit features, builtins, control flow, closures, type comments."""

CASES = [
    ('''
def f(x: int) -> int:
    if torch.jit.is_scripting():
        return x + 1
    return x + 1
''', [(1,)]),
    ('''
@torch.jit.unused
def helper(x: int) -> int:
    return x * 100


def f(x: int) -> int:
    if x > 1000:
        return helper(x)
    return x
''', [(1,)]),
    ('''
@torch.jit.ignore
def helper(x: int) -> int:
    return x * 100


def f(x: int) -> int:
    return helper(x) + 1
''', [(2,)]),
    ('''
def f(x):
    # type: (int) -> int
    return x * 2
''', [(2,)]),
    ('''
def f(x, y):
    # type: (List[int], Optional[str]) -> str
    if y is None:
        return str(len(x))
    return y
''', [([1], None), ([], "a")]),
    ('''
def f(x: Union[int, List[int]]) -> int:
    if isinstance(x, int):
        return x
    return sum(x)
''', [(1,), ([1, 2],)]),
    ('''
def f(x: List[int]) -> List[bool]:
    return [isinstance(x, list), isinstance(x, (int, list)),
            isinstance(3, int), isinstance(3.0, float), isinstance("a", str)]
''', [([1],)]),
    ('''
def f(n: int) -> int:
    fn = lambda a: a * 2
    return fn(n)
''', [(3,)]),
    ('''
def f(n: int) -> int:
    def inner(a: int) -> int:
        return a + n
    return inner(2)
''', [(3,)]),
    ('''
def g(x: int) -> int:
    return x * 3


def f(x: int) -> int:
    return g(g(x))
''', [(2,)]),
    ('''
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def f(n: int) -> int:
    return fib(n)
''', [(10,)]),
    ('''
def f(n: int) -> int:
    s = 0
    for i in range(n):
        if i == 5:
            break
        if i % 2 == 0:
            continue
        s += i
    else:
        s = -1
    return s
''', [(3,), (10,)]),
    ('''
def f(n: int) -> int:
    i = 0
    while True:
        i += 1
        if i > n:
            break
    return i
''', [(4,)]),
    ('''
def f(x: int) -> str:
    return "pos" if x > 0 else "neg" if x < 0 else "zero"
''', [(1,), (-1,), (0,)]),
    ('''
def f(x: int) -> int:
    y = torch.jit.annotate(int, x)
    z: Final[int] = 3
    return y + z
''', [(2,)]),
    ('''
def f(x: List[int]) -> int:
    a = 0
    for i, (p, q) in enumerate(zip(x, x[1:])):
        a += i * (q - p)
    return a
''', [([1, 4, 9, 16],)]),
    ('''
def f(x: int) -> None:
    print("value", x, 1.5, "s", [1, 2], (3, "a"), True, None)
''', [(3,)]),
    ('''
def f(x: int) -> None:
    print(x, end="")
    print("a", "b", sep="-")
''', [(3,)]),
    ('''
def f(x: float) -> None:
    print(x, x / 3, 1e20, float("nan"))
''', [(1.0,)]),
    ('''
def f(x: int) -> int:
    if x > 0:
        y = 1
    else:
        y = 2
    return y
''', [(1,), (-1,)]),
    ('''
def f(xs: List[int]) -> int:
    total = 0
    for x in xs:
        total = total + x if x > 0 else total
    return total
''', [([1, -2, 3],)]),
    ('''
def f(a: int, b: int = 2, c: str = "x") -> str:
    return c * (a + b)
''', [(1,), (1, 0), (1, 1, "y")]),
    ('''
def g(a: int, b: int = 5) -> int:
    return a - b


def f(x: int) -> List[int]:
    return [g(x), g(x, 1), g(b=x, a=1), g(a=x)]
''', [(3,)]),
    ('''
def f(x: int) -> bool:
    return torch.jit.isinstance(x, int)
''', [(1,)]),
    ('''
def f(x: Optional[List[int]]) -> int:
    if torch.jit.isinstance(x, List[int]):
        return len(x)
    return -1
''', [([1, 2],), (None,)]),
    ('''
def f(n: int) -> int:
    x = 0
    for _ in range(n):
        for j in range(3):
            x += j
    return x
''', [(2,)]),
    ('''
def f(x: int) -> int:
    with torch.no_grad():
        y = x + 1
    return y
''', [(2,)]),
    ('''
def f(x: List[int]) -> List[int]:
    return list(map(lambda v: v * 2, x))
''', [([1, 2],)]),
    ('''
def f(s: str) -> int:
    return len(s) if s else 0
''', [("",), ("ab",)]),
    ('''
def f(xs: List[int]) -> int:
    x = xs[0] if len(xs) > 0 else None
    if x is None:
        return 0
    return x
''', [([],), ([3],)]),
    ('''
def f(a: int, b: int) -> Tuple[int, int]:
    def swap(p: int, q: int) -> Tuple[int, int]:
        return q, p
    return swap(a, b)
''', [(1, 2)]),
    ('''
def f(x: int) -> int:
    assert isinstance(x, int)
    return x
''', [(1,)]),
    ('''
def f(x: float) -> str:
    return type(x).__name__ if False else "float"
''', [(1.0,)]) if False else ('''
def f() -> int:
    return torch.jit._unwrap_optional(torch.jit.annotate(Optional[int], 3))
''', [()]),
    ('''
def f(x: int) -> int:
    return int(x is not None)
''', [(3,)]),
    ('''
def f(x: List[int]) -> Tuple[int, List[int]]:
    first, *rest = x
    return first, rest
''', [([1, 2, 3],)]),
    ('''
def f(x: str) -> int:
    if x == "a":
        return 1
    elif x == "b":
        return 2
    return 3
''', [("a",), ("b",), ("c",)]),
    ('''
def f(x: int) -> int:
    # type: (...) -> int
    return x
''', [(1,)]) if False else ('''
def f(x: Tensor, n: int) -> float:
    return float(x.sum()) + n
''', [(None, 1)]) if False else ('''
def f() -> float:
    x = torch.ones(3)
    return float(x.sum()) + int(x[0]) + bool(x[1])
''', [()]),
]

CASES += [
    ('''
@torch.jit._overload
def pick(x):
    # type: (int) -> int
    pass


@torch.jit._overload
def pick(x):
    # type: (float) -> float
    pass


def pick(x):
    return x


@torch.jit._overload
def tag(x: int, y: str = "a") -> str:
    pass


@torch.jit._overload
def tag(x: str, y: str = "b") -> str:
    pass


def tag(x, y: str = "c") -> str:
    if isinstance(x, int):
        return str(x + 1) + y
    return x + y


def f():
    return pick(1.0), pick(2), tag(1), tag("z"), tag(2, y="q")
''', [()]),
]
