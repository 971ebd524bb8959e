"""PyTorch's test_union_pep604.py checkScript cases (`X | Y` annotations: refinement by
isinstance and torch.jit.isinstance with tuples and unions on the right, subtractive
refinement, aliasing through a List[Optional[List[Tensor]]]), and the list and dict
assignment templates of test_union.py / test_union_pep604.py that compile, each in
Union[...] and in `|` spelling, plus test_types.py's cases, as CompilationUnit sources."""

import torch

LIST_T = '''
def fn():
    x: {ann} = {lhs}
    if torch.jit.isinstance(x, List[torch.Tensor]):
        x.append(torch.tensor(3))
    return x
'''
DICT_T = '''
def fn():
    x: {ann} = {lhs}
    if torch.jit.isinstance(x, Dict[str, torch.Tensor]):
        x["foo"] = torch.tensor(3)
    return x
'''
L_TENSOR = "[torch.arange(3), torch.arange(5)]"
L_STR = '["foo", "bar", "baz"]'
L_COMP_T = "[torch.add(x, 1) for x in [torch.arange(3), torch.arange(5)]]"
L_COMP_S = '[x + "!" for x in ["foo", "bar", "baz"]]'
D_ST = '{"foo" : torch.arange(3), "bar" : torch.arange(5)}'
D_SI = '{"foo" : 1, "bar" : 2}'

TEMPLATES = [(LIST_T, a, l) for a, l in [
    ("List[str] | List[torch.Tensor]", L_TENSOR), ("List[str] | List[torch.Tensor]", L_STR),
    ("List[str] | List[torch.Tensor]", L_COMP_T), ("List[str] | List[torch.Tensor]", L_COMP_S),
    ("List[torch.Tensor] | int", "[]"), ("List[torch.Tensor] | int", L_TENSOR),
    ("List[torch.Tensor] | int", L_COMP_T),
    ("Union[List[str], List[torch.Tensor]]", L_STR), ("Union[List[torch.Tensor], int]", "[]"),
]] + [(DICT_T, a, l) for a, l in [
    ("Dict[str, torch.Tensor] | Dict[str, int]", D_ST),
    ("Dict[str, torch.Tensor] | Dict[str, int]", D_SI),
    ("Dict[str, torch.Tensor] | int", "{}"), ("Dict[str, torch.Tensor] | int", D_ST),
    ("Union[Dict[str, torch.Tensor], Dict[str, int]]", D_SI),
]]

CASES = [(t.format(ann=a, lhs=l), [()]) for t, a, l in TEMPLATES] + [
('''
def test_func(a: int | float, b: Optional[int]):
    return 0
''', [(5, 6)]),
('''
def fn(x: int | float) -> str:
    return "foo"
''', [(1,), (1.0,)]),
('''
def fn(x: Dict[str, int] | List[int]) -> str:
    return "foo"
''', [({"foo": 1, "bar": 2, "baz": 3},), ([1, 2, 3],)]),
('''
def fn(x: int) -> int | str:
    return "foo"
''', [(1,)]),
('''
def fn() -> int | str:
    x: int | str = "foo"
    return x
''', [()]),
('''
def fn() -> None:
    l: List[int | str] = []
    u1: int | str = "foo"
    u2: int | str = 1
    l.append(u1)
    l.append(u2)
''', [()]),
('''
def fn():
    # type: () -> int | str
    x: int | str = "foo"
    return x
''', [()]),
('''
def fn():
    t: Tuple[int | str, int | str] = (1, "foo")
    return t
''', [()]),
('''
def aux1(i: int):
    return int(i**2)

def aux2(s: str):
    return s + s

def fn() -> int | str:
    x: int | str = "foo"
    i: int = 1
    x = i
    y: int = aux1(x)
    z: str = aux2(str(y))
    x = z
    return x
''', [()]),
('''
def inner(x: int | None) -> int:
    if x is not None:
        return x
    else:
        return 5

def fn2() -> int:
    a: int | None = 5
    b: int | None = None
    a_ = inner(a)
    b_ = inner(b)
    return a_ + b_
''', [()]),
('''
def fn() -> int | str | torch.Tensor:
    x: int | str = "foo"
    return x
''', [()]),
('''
def fn():
    x: Dict[str, int | str] = {}
    x["foo"] = "bar"
    x["baz"] = 2
    return x["baz"]
''', [()]),
('''
def fn(x: int | str) -> str:
    if isinstance(x, str):
        z = x + "bar"
        return x
    else:
        return "baz"
''', [("foo",), (1,)]),
('''
def fn(x: int) -> str:
    if torch.jit.isinstance(x, int | str):
        return "bar"
    else:
        return "baz"
''', [(1,)]),
('''
def fn(x: int | float | List[str]) -> str:
    if isinstance(x, (int, float)):
        if isinstance(x, int):
            return str(x)
        else:
            return "foo"
    else:
        if len(x):
            return x[0]
        else:
            return "bar"
''', [(1,), (1.0,), (["a", "b", "c"],), ([],)]),
('''
def fn(x: int | List[str]) -> str:
    if isinstance(x, (int, float)):
        y = x + x
        return str(y)
    else:
        if len(x):
            return x[0]
        else:
            return "bar"
''', [(1,), (["a", "b", "c"],)]),
('''
def fn(x: List[int] | int) -> int:
    if torch.jit.isinstance(x, (int, float, str)):
        z = x + 1
        return z
    else:
        return 100
''', [([1, 2, 3],), (1,)]),
('''
def fn(x: List[int] | int) -> int:
    if torch.jit.isinstance(x, int | float | str):
        z = x + 1
        return z
    else:
        return 100
''', [([1, 2, 3],), (1,)]),
('''
def fn(x: int) -> int | str:
    if x % 2:
        return "foo"
    else:
        return "bar"
''', [(1,), (8,)]),
('''
def fn(x: List[int] | Dict[str, int]) -> int:
    if torch.jit.isinstance(x, List[int]):
        return x[0]
    else:
        return list(x.values())[0]
''', [([1, 2, 3],), ({"foo": 1, "bar": 2, "baz": 3},)]),
('''
def fn(x: List[int] | int) -> int:
    if not isinstance(x, int):
        x.append(1)
        return x[0]
    else:
        return x
''', [(1,), ([1, 2, 3],)]),
('''
def fn(x: List[int] | int) -> int:
    if not torch.jit.isinstance(x, List[int]):
        return x
    else:
        x.append(1)
        return x[0]
''', [(1,), ([1, 2, 3],)]),
('''
def fn():
    x: List[torch.Tensor] = []
    z: List[Optional[List[torch.Tensor]]] = []
    z.append(x)
    x_alias = z[0]
    if torch.jit.isinstance(x_alias, List[torch.Tensor]):
        x_alias.append(torch.tensor(3))
    return x
''', [()]),
('''
def fn(x: int) -> str:
    if x % 2:
        y: str | int = "bar"
    else:
        y: str | int = x
    if isinstance(y, str):
        return y
    else:
        return "baz"
''', [(1,), (8,)]),
('''
def fn(x: torch.Tensor) -> Tuple[Tuple[torch.Tensor], Dict[str, int]]:
    xl: list[tuple[torch.Tensor]] = []
    xd: dict[str, int] = {}
    xl.append((x,))
    xd["foo"] = 1
    return xl.pop(), xd
''', [(torch.randn(2, 2),)]),
('''
def fn():
    a: List[int] = []
    b: torch.Tensor = torch.ones(2, 2)
    c: Optional[torch.Tensor] = None
    d: Optional[torch.Tensor] = torch.ones(3, 4)
    for _ in range(10):
        a.append(4)
        c = torch.ones(2, 2)
        d = None
    return a, b, c, d
''', [()]),
('''
def parser_bug(o: Optional[torch.Tensor]):
    pass
''', [(None,), (torch.ones(1),)]),
]
