"""Exceptions: raise with messages, assert, try/except."""

CASES = [
    ('''
def f(x: int) -> int:
    if x < 0:
        raise ValueError("negative: " + str(x))
    return x
''', [(1,), (-1,)]),
    ('''
def f(x: int) -> int:
    if x < 0:
        raise RuntimeError(f"bad value {x}")
    return x
''', [(-2,)]),
    ('''
def f(x: int) -> int:
    if x < 0:
        raise Exception("generic")
    return x
''', [(-2,)]),
    ('''
def f(x: int) -> int:
    assert x > 0, "x must be positive, got %d" % x
    return x
''', [(-2,), (2,)]),
    ('''
def f(x: int) -> int:
    assert x > 0
    return x
''', [(-2,)]),
    ('''
def f(xs: List[int], i: int) -> int:
    try:
        return xs[i]
    except IndexError:
        return -1
''', [([1], 0), ([1], 5)]),
    ('''
def f(s: str) -> int:
    try:
        return int(s)
    except ValueError as e:
        return -1
    finally:
        pass
''', [("1",), ("x",)]),
    ('''
def f(d: Dict[str, int]) -> str:
    try:
        d["x"]
        return "found"
    except KeyError:
        return "missing"
''', [({},), ({"x": 1},)]),
    ('''
def f(x: int) -> int:
    try:
        if x == 0:
            raise ValueError("zero")
        return 10 // x
    except (ValueError, ZeroDivisionError):
        return 0
''', [(0,), (5,)]),
    ('''
def f(x: int) -> str:
    try:
        raise TypeError("t" + str(x))
    except Exception as e:
        return str(e)
''', [(3,)]),
    ('''
def f(x: int) -> int:
    return 10 // x
''', [(0,)]),
    ('''
def f(x: float) -> float:
    return 1.0 / x
''', [(0.0,)]),
    ('''
def f(x: int) -> int:
    return x % 0
''', [(3,)]),
    ('''
def f(x: int) -> int:
    if x > 2:
        raise IndexError("too big")
    elif x < -2:
        raise KeyError("too small")
    raise NotImplementedError("middle")
''', [(3,), (-3,), (0,)]),
    ('''
def f(x: int) -> int:
    y = 0
    try:
        y = 1
        raise ValueError("v")
    except ValueError:
        y += 10
    else:
        y += 100
    finally:
        y += 1000
    return y
''', [(0,)]),
    ('''
def f() -> None:
    raise AssertionError("explicit")
''', [()]),
    ('''
def f(x: float) -> float:
    return math.sqrt(x)
''', [(-1.0,), (4.0,)]),
    ('''
def f(x: float) -> float:
    return math.log(x)
''', [(0.0,), (-1.0,)]),
    ('''
def f(x: int) -> int:
    torch._assert(x > 0, "must be positive")
    return x
''', [(1,), (-1,)]),
    ('''
def f(x: int) -> int:
    if x == 0:
        raise ValueError
    return x
''', [(0,)]),
    ('''
def f(x: Tensor) -> Tensor:
    if x.sum() > 0:
        raise RuntimeError("positive sum")
    return x
''', [()]) if False else ('''
def f() -> Tensor:
    x = torch.ones(2)
    if bool(x.sum() > 0):
        raise RuntimeError("positive sum")
    return x
''', [()]),
]

CASES += [
    ('''
def f(x: int) -> int:
    if x > 0:
        raise RuntimeError("hello", x, 2.5)
    raise ValueError("a", "b")
''', [(1,), (0,)]),
    ('''
def f():
    if 1 == 1:
        a = 1
    else:
        if 1 == 1:
            raise Exception("Hi")
        else:
            raise Exception("Hi")
    return a
''', [()]),
]
