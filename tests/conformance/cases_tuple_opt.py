"""Tuples and Optional refinement."""

CASES = [
    ('''
def f(t: Tuple[int, str, float]) -> Tuple[int, float, str, Tuple[int, str], Tuple[str, float]]:
    return t[0], t[-1], t[1], t[:2], t[1:]
''', [((1, "a", 2.0),)]),
    ('''
def f(a: Tuple[int, int], b: Tuple[int, int]) -> List[bool]:
    return [a == b, a != b, a < b, a <= b, a > b, a >= b]
''', [((1, 2), (1, 3)), ((2, 0), (1, 9)), ((1, 1), (1, 1))]),
    ('''
def f(t: Tuple[int, int, int]) -> bool:
    return 2 in t
''', [((1, 2, 3),), ((4, 5, 6),)]),
    ('''
def f(t: Tuple[int, int]) -> int:
    a, b = t
    return a * 10 + b
''', [((1, 2),)]),
    ('''
def f(t: Tuple[int, int]) -> Tuple[int, int]:
    return t[::-1]
''', [((1, 2),)]),
    ('''
def f(t: Tuple[int, str]) -> bool:
    return hash(t) == hash((t[0], t[1]))
''', [((1, "a"),)]),
    ('''
def f() -> Tuple[int, Tuple[str, List[int]]]:
    x = (1, ("a", [2]))
    x[1][1].append(3)
    return x
''', [()]),
    ('''
def f(t: Tuple[int, int, int]) -> int:
    s = 0
    for x in t:
        s += x
    return s
''', [((1, 2, 3),)]),
    ('''
def f(t: Tuple[int, int]) -> str:
    return str(t) + str((1,)) + str(()) + str((1.5, "x", True))
''', [((1, 2),)]),
    ('''
def f(t: Tuple[int, float]) -> int:
    return len(t)
''', [((1, 2.0),)]),
    ('''
def f(x: Optional[int], y: Optional[int]) -> int:
    if x is not None and y is not None:
        return x + y
    elif x is not None:
        return x
    return -1
''', [(1, 2), (None, 2), (3, None), (None, None)]),
    ('''
def f(x: Optional[int]) -> int:
    if x is None:
        return 0
    return x * 2
''', [(None,), (4,)]),
    ('''
def f(x: Optional[int]) -> int:
    assert x is not None
    return x + 1
''', [(None,), (4,)]),
    ('''
def f(x: Optional[int]) -> int:
    assert x is not None, "x must be set"
    return x + 1
''', [(None,)]),
    ('''
def f(x: Optional[List[int]]) -> int:
    if x is None or len(x) == 0:
        return -1
    return x[0]
''', [(None,), ([],), ([5],)]),
    ('''
def f(x: Optional[str]) -> str:
    return x if x is not None else "default"
''', [(None,), ("v",)]),
    ('''
def f(x: Optional[Tensor]) -> Tensor:
    if x is None:
        x = torch.zeros(2)
    return x + 1
''', [(None,)]),
    ('''
def f(x: Optional[int]) -> bool:
    return x is None
''', [(None,), (0,)]),
    ('''
def f(a: Optional[int] = None, b: int = 3) -> int:
    if a is None:
        a = b
    return a * b
''', [(), (2,), (None, 5)]),
    ('''
def f(x: Optional[float]) -> float:
    y = x
    if y is not None:
        return y
    return 0.0
''', [(None,), (1.5,)]),
    ('''
def f(x: int) -> Optional[int]:
    if x > 0:
        return x
    return None
''', [(1,), (-1,)]),
    ('''
def f(x: Optional[int]) -> int:
    if not (x is None):
        return x
    return 5
''', [(None,), (1,)]),
    ('''
def f(xs: List[Optional[int]]) -> int:
    s = 0
    for x in xs:
        if x is not None:
            s += x
    return s
''', [([1, None, 2],)]),
    ('''
def f(x: Optional[Tuple[int, int]]) -> int:
    if x is not None:
        a, b = x
        return a + b
    return 0
''', [((1, 2),), (None,)]),
    ('''
def f(x: Union[int, str]) -> str:
    if isinstance(x, int):
        return str(x + 1)
    return x + "!"
''', [(1,), ("a",)]),
    ('''
def f(x: Union[int, float, str]) -> str:
    if isinstance(x, (int, float)):
        return "num"
    return "str"
''', [(1,), (1.0,), ("s",)]),
    ('''
def f(x: Optional[int]) -> int:
    return x or 3
''', [(None,), (0,), (5,)]) if False else ('''
def f(x: Optional[int]) -> int:
    y = 0 if x is None else x
    return y
''', [(None,), (5,)]),
    ('''
def f(x: Optional[int], y: int) -> int:
    if x is None or y > x:
        return y
    return x
''', [(None, 1), (3, 1), (0, 1)]),
    ('''
def f(x: Optional[int]) -> int:
    while x is not None and x > 0:
        return x
    return 0
''', [(None,), (3,)]),
    ('''
def f() -> Tuple[int, int]:
    t = (3, 4)
    a, b = t
    a, b = b, a
    return a, b
''', [()]),
    ('''
def f(x: int) -> Tuple[int, int]:
    return divmod(x, 3)
''', [(7,), (-7,)]),
    ('''
def f(x: float) -> Tuple[float, float]:
    return divmod(x, 2.0)
''', [(7.5,), (-7.5,)]),
    ('''
def f(t: Tuple[int, int], i: int) -> int:
    return t[i]
''', [((1, 2), 1), ((1, 2), -1), ((1, 2), 2)]),
    ('''
def f(x: Any) -> str:
    return str(x)
''', [(1,), ("a",)]),
]
