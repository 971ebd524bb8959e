"""Union and Optional annotations in every position (test_union / test_typing style)."""

CASES = [
    ('''
def f(x: Union[int, float]) -> str:
    return "ok"
''', [(1,), (1.0,)]),
    ('''
def f(x: Union[Dict[str, int], List[int]]) -> str:
    return "ok"
''', [({"a": 1},), ([1, 2],)]),
    ('''
def f(x: int) -> Union[int, str]:
    return "s"
''', [(1,)]),
    ('''
def f() -> Union[int, str]:
    x: Union[int, str] = "v"
    return x
''', [()]),
    ('''
def f() -> None:
    l: List[Union[int, str]] = []
    a: Union[int, str] = "v"
    b: Union[int, str] = 1
    l.append(a)
    l.append(b)
''', [()]),
    ('''
def f():
    # type: () -> Union[int, str]
    x: Union[int, str] = "v"
    return x
''', [()]),
    ('''
def f():
    t: Tuple[Union[int, str], Union[int, str]] = (1, "v")
    return t
''', [()]),
    ('''
def f() -> Union[int, str]:
    x: Union[int, str] = "v"
    i: int = 1
    s: str = "w"
    x = i
    x = s
    return x
''', [()]),
    ('''
def f(flag: bool) -> Tuple[Union[str, int, None], Union[str, int, None]]:
    y: Union[int, str, None] = "v"
    if flag:
        x: Optional[Union[int, str]] = y
    else:
        x: Optional[Union[int, str]] = "w"
    return x, y
''', [(True,), (False,)]),
    ('''
def f() -> Union[int, str, torch.Tensor]:
    x: Union[int, str] = "v"
    return x
''', [()]),
    ('''
def f():
    x: Dict[str, Union[int, str]] = {}
    x["a"] = "b"
    x["c"] = 2
    return x["c"]
''', [()]),
    ('''
def g(x: Union[int, None]) -> int:
    if x is not None:
        return x
    return 5


def f() -> int:
    a: Optional[int] = 5
    b: Optional[int] = None
    return g(a) + g(b)
''', [()]),
    ('''
def f(x: Union[int, str]) -> str:
    if isinstance(x, str):
        return x
    return str(x * 2)
''', [("a",), (3,)]),
    ('''
def f(x: Union[List[int], int]) -> int:
    if isinstance(x, list):
        return len(x)
    return x
''', [([1, 2],), (5,)]),
    ('''
def f(x: Optional[int] = None, y: Optional[str] = None) -> str:
    out = ""
    if x is not None:
        out += str(x)
    if y is not None:
        out += y
    return out
''', [(), (1,), (None, "a"), (2, "b")]),
    ('''
def f(xs: List[Optional[str]]) -> List[str]:
    return [x for x in xs if x is not None]
''', [(["a", None, "b"],)]),
    ('''
def f(d: Dict[str, Optional[List[int]]]) -> int:
    total = 0
    for k, v in d.items():
        if v is not None:
            total += sum(v)
    return total
''', [({"a": [1, 2], "b": None},)]),
    ('''
def f(x: Optional[int]) -> Optional[int]:
    return x
''', [(None,), (3,)]),
    ('''
def f(a: Optional[int], b: Optional[int]) -> int:
    if a is None or b is None:
        return 0
    return a * b
''', [(None, 1), (2, 3)]),
    ('''
def f(a: Optional[int]) -> int:
    if a is not None and a > 2:
        return a
    return -1
''', [(None,), (1,), (5,)]),
]
