"""PyTorch's test_jit.py checkScript cases (TestScript) not ported before, written as
CompilationUnit sources with the tests' inputs (random inputs from a fixed seed)."""

import torch

torch.manual_seed(0)
X = torch.randn(3, 4)
R4 = torch.rand(4)

CASES = [
    ('''
def foo(i):
    a = (i + 4, i * 2)
    c = a
    if True:
        c = (i * 9, i + 1)
    t0, t1 = c
    while False:
        t0, t1 = c
        c = (t1, t0)
    x = (1,)
    y = 1,
    return t0, x, y
''', [(torch.rand(10, 3),)]),
    ('''
def fn_varargs(x, *args):
    return args[0] if args else x

def fn1(x, y, z):
    return fn_varargs(x)
''', [(X, X + 1, X + 2)]),
    ('''
def fn_varargs(x, *args):
    return args[0] if args else x

def fn2(x, y, z):
    return fn_varargs(x, y)
''', [(X, X + 1, X + 2)]),
    ('''
def fn_varargs(x, *args):
    return args[0] if args else x

def fn3(x, y, z):
    return fn_varargs(x, y, z)
''', [(X, X + 1, X + 2)]),
    ('''
def fn(x : torch.Tensor, y : Tensor, z) -> Tuple[Tensor, Tensor, Tensor]:
    return (x, y + z, z)

def good_fn(x):
    y, z, w = fn(x, x, x)
    return y, z, w
''', [(torch.ones(2, 2),)]),
    ('''
def foo(a, c):
    b = 0.0
    if bool(a == 0.0):
        b = 1.0
    return b + c
''', [(torch.zeros(1), torch.ones(1)), (torch.ones(1), torch.ones(1))]),
    ('''
def foo(a):
    if bool(a == 0):
        b = 1
    else:
        b = 0
    return b + 1
''', [(torch.ones(1, dtype=torch.long),), (torch.zeros(1, dtype=torch.long),)]),
    ('''
def foo2(a):
    b = 0
    if bool(a == 0):
        b = 1
    return b + 1
''', [(torch.ones(1, dtype=torch.long),), (torch.zeros(1, dtype=torch.long),)]),
    ('''
def foo3(a):
    b = 1
    if bool(a == 0):
        c = 4
    else:
        b = 0
    return b + 1
''', [(torch.ones(1, dtype=torch.long),), (torch.zeros(1, dtype=torch.long),)]),
    ('''
def foo(a, b, x):
    c = a
    for _ in range(2):
        a = c + b
        c = x
        b = x
    return a
''', [(torch.zeros(1), torch.zeros(4), torch.zeros(5))]),
    ('''
def func_1(x):
    return torch.nn.functional.adaptive_avg_pool1d(x, 1)
''', [(torch.randn(8, 8, 8),)]),
    ('''
def func_2(x):
    return torch.nn.functional.adaptive_avg_pool1d(x, output_size=1)
''', [(torch.randn(8, 8, 8),)]),
    ('''
def func_3(x):
    return torch.nn.functional.adaptive_avg_pool1d(x, output_size=[1])
''', [(torch.randn(8, 8, 8),)]),
    ('''
def t0(a):
    return torch.cat([a, a])
''', [(torch.zeros(1, 1),)]),
    ('''
def t1(a):
    return torch.cat(dim=1, tensors=[a, a])
''', [(torch.zeros(1, 1, 2),)]),
    ('''
def t2(a):
    if True:
        b = 1
    else:
        b = 0
    return torch.sum(a, dim=b, keepdim=False)
''', [(torch.zeros(1, 1, 2),)]),
    ('''
def foo(x, y):
    # type: (Tensor, Tuple[Tuple[Tensor, Tensor], Tensor]) -> Tuple[Tensor, Tensor]
    return x, x
''', [(X, ((X, X), X))]),
    ('''
def foo(x : Tensor, y : Tuple[Tuple[Tensor, Tensor], Tensor]) -> Tuple[Tensor, Tensor]:
    return x, x
''', [(X, ((X, X), X))]),
    ('''
def t(x):
    gather1 = x[0]
    idx = 0 + 1
    gather2 = x[idx]
    return gather1 + gather2
''', [(torch.zeros(3, 2, 3),)]),
    ('''
def foo():
    return torch.zeros(3, 4, 5, dtype=torch.int)
''', [()]),
    ('''
def test_rand():
    a = torch.rand([3, 4])
    return a + 1.0 - a
''', [()]),
    ('''
def fn(x):
    y = 0
    for i in range(int(x)):
        y += i
    return y
''', [(torch.tensor(10),)]),
    ('''
def fn():
    y = 0
    for _ in range(10):
        y += 1
    return y
''', [()]),
    ('''
def fn2():
    y = 0
    for i in range(10):
        y += i
    return y
''', [()]),
    ('''
def fn(x):
    y = 0
    for _ in range(10):
        for j in range(int(x)):
            y += j
    return y
''', [(torch.tensor(10),)]),
    ('''
def fn(x):
    y = 0
    for _ in range(int(x)):
        y += 1
    return y
''', [(torch.tensor(-20),), (torch.tensor(-2),), (torch.tensor(-1),), (torch.tensor(0),),
      (torch.tensor(1),), (torch.tensor(2),)]),
    ('''
def fn(x, y):
    return torch.where(x > 0.0, x, y)
''', [(torch.randn(3, 2, dtype=torch.float), torch.ones(3, 2, dtype=torch.float))]),
    ('''
def fn(x, y):
    return x.where(x > 0.0, y)
''', [(torch.randn(3, 2, dtype=torch.float), torch.ones(3, 2, dtype=torch.float))]),
    ('''
def return_stmt(x):
    if bool(x > 3):
        return x + 3
    else:
        return x
''', [(torch.rand(1),), (torch.tensor([4.0]),)]),
]
CASES += [
    ('''
def tuple_slice(a):
    if bool(a):
        b = (1, 2, 3, 4)
    else:
        b = (4, 3, 2, 1)
    c = b[-4:4]
    d = b[0:]
    e = c[1:-1]
    return e
''', [(torch.tensor([1]),), (torch.tensor(0),)]),
    ('''
def test_indexing_end_out_of_bounds():
    c = (1, 2)
    return c[2:10]
''', [()]),
    ('''
def test(x):
    # type: (Optional[int]) -> int
    x = torch.jit._unwrap_optional(x)
    x = x + x
    return x
''', [(3,)]),
    ('''
def test_test():
    return torch.jit._unwrap_optional(1)
''', [()]),
    ('''
def foo(x, y, z):
    # type: (Tensor, Tuple[Tensor, Tensor, Tensor], Tuple[Tensor, Tuple[Tensor, Tensor]]) -> Tensor
    return x
''', [(X, (X, X, X), (X, (X, X)))]),
    ('''
def fn(x, y):
    # type: (Tensor, float) -> float
    return float((x + y).sum())
''', [(torch.ones(2, 2), 1)]),
]

# test_annot_string_{py3,mypy}_fn: each input annotation and its return annotation
_PAIRS = [("Tensor", "Tensor", X), ("torch.Tensor", "Tensor", X), ("str", "str", "a"),
          ("int", "int", 3), ("bool", "bool", True), ("BroadcastingList3[float]", "List[float]", [1.0, 2.0, 3.0]),
          ("BroadcastingList2[int]", "List[int]", [1, 2]), ("List[int]", "List[int]", [4, 5]),
          ("Optional[int]", "Optional[int]", None), ("Optional[int]", "Optional[int]", 7)]
for _in, _out, _v in _PAIRS:
    CASES.append((f'''
def foo(x : {_in}, y : Tuple[Tensor, Tensor]) -> Tuple[{_out}, {_out}]:
    return x, x
''', [(_v, (X, X))]))
    CASES.append((f'''
def foo(x, y):
    # type: ({_in}, Tuple[Tensor, Tensor]) -> Tuple[{_out}, {_out}]
    return x, x
''', [(_v, (X, X))]))

# test_exceptions / test_assertions
CASES += [
    ('''
def foo(cond):
    if bool(cond):
        raise ValueError(3)
    return 1
''', [(torch.tensor(0),), (torch.tensor(1),)]),
    ('''
def foo_except_used():
    a = Exception()
    print(a)
    raise a
''', [()]),
    ('''
def foo(cond):
    assert bool(cond), "hi"
    return 0
''', [(torch.tensor(1),), (torch.tensor(0),)]),
    ('''
def foo(cond):
    assert bool(cond), "hi"
''', [(torch.tensor(1),), (torch.tensor(0),)]),
    ('''
def f(x: int):
    e = ValueError("bad", x)
    print(e)
    s = str(e)
    if x > 2:
        raise e
    return s
''', [(1,), (3,)]),
    ('''
def f(x: int) -> str:
    e = KeyError(x)
    return str(e) + repr(e)
''', [(1,)]),
    ('''
def f(x: int) -> List[str]:
    es = [ValueError("a"), TypeError("b")]
    return [str(e) for e in es]
''', [(1,)]),
]

CASES += [
    ('''
def foo(a, b):
    c = a + b
    c.add_(b)
    return c
''', [(torch.rand(3), torch.rand(3))]),
    ('''
def foo(a, b):
    a[0] += b
    return a
''', [(torch.rand(2, 3), torch.rand(3))]),
    ('''
def fn(x, y):
    # type: (Tensor, Tensor) -> List[int]
    return torch._C._infer_size(x.size(), y.size())
''', [(torch.ones(2, 4, 2), torch.ones(2, 4, 2)), (torch.ones(2, 1, 2), torch.ones(4, 1))]),
    ('''
def nest(x):
    x = x + 1
    if bool(x > 3):
        if bool(x > 4):
            x += 1
        return x + 1
    else:
        return x + 2
''', [(torch.rand(1),), (torch.tensor([3.5]),), (torch.tensor([4.5]),)]),
    ('''
def early_ret(x):
    x = x + 1
    if bool(x > 3):
        return x + 1
    x = x + 1
    return x + 2
''', [(torch.rand(1),), (torch.tensor([3.5]),)]),
    ('''
def nest_early_ret(x):
    x = x + 1
    if bool(x > 3):
        if bool(x > 4):
            return x + 2
        return x + 1
    x = x + 1
    return x + 2
''', [(torch.rand(1),), (torch.tensor([3.5]),), (torch.tensor([4.5]),)]),
    ('''
def foo(x):
    chunked = torch.chunk(x, 1)
    foo = chunked[0]
    foo.add_(5)
    return x
''', [(torch.rand(2, 3),)]),
    ('''
def python_list_op(lst):
    # type: (List[Tensor]) -> Tensor
    return lst[0]

def fn(lst):
    # type: (List[Tensor]) -> Tensor
    return python_list_op(lst)
''', [([torch.ones(2) + 2, torch.ones(2)],)]),
    ('''
def length(x):
    # type: (Dict[str, Tensor]) -> int
    return len(x)
''', [({'a': torch.ones(1), 'b': torch.ones(1) + 1},)]),
    ('''
def keys(x):
    # type: (Dict[str, Tensor]) -> List[str]
    return list(x.keys())
''', [({'a': torch.ones(1), 'b': torch.ones(1) + 1},)]),
    ('''
def values(x):
    # type: (Dict[str, Tensor]) -> List[Tensor]
    return list(x.values())
''', [({'a': torch.ones(1), 'b': torch.ones(1) + 1},)]),
    ('''
def simple(x):
    # type: (Dict[str, int]) -> Dict[str, int]
    return x
''', [({'item': 20, 'other_item': 120},)]),
    ('''
def index(x):
    # type: (Dict[str, int]) -> int
    return x['item']
''', [({'item': 20, 'other_item': 120},)]),
    ('''
def missing_index(x):
    # type: (Dict[str, int]) -> int
    return x['dne']
''', [({'item': 20, 'other_item': 120},)]),
    ('''
def type_default():
    # type: () -> Dict[str, Tensor]
    return {}
''', [()]),
    ('''
def literal1():
    return torch.jit.annotate(Dict[int, float], {})
''', [()]),
    ('''
def literal2():
    return torch.jit.annotate(Dict[int, float], {10: 1.2})
''', [()]),
    ('''
def unify_to_optional(x):
    # type: (bool) -> Optional[int]
    if x:
        a = None
    else:
        a = 2
    return a
''', [(True,), (False,)]),
    ('''
def other_fn(x=None):
    # type: (Optional[int]) -> int
    return torch.jit._unwrap_optional(x)

def fn(x):
    # type: (int) -> int
    return other_fn(x)
''', [(2,)]),
]

CASES += [
    ('''
def literal3():
    return torch.jit.annotate(Dict[int, float], {10: 1.2, 11: 1.3})
''', [()]),
    ('''
def list_of_dicts():
    # type: () -> List[Dict[str, Tensor]]
    return [{'word': torch.ones(2) + 3}, {'other word': torch.ones(1) + 2}]
''', [()]),
    ('''
def python_lookup(my_dict, keys):
    # type: (Dict[str, int], List[str]) -> List[int]
    return [my_dict[k] for k in keys]

def fn(my_dict, keys):
    # type: (Dict[str, int], List[str]) -> List[int]
    return python_lookup(my_dict, keys)
''', [({'a': 1, 'b': 2, 'c': 3}, ('a', 'c'))]),
]

CASES += [
    ('''
def foo(x):
    # type: (Optional[List[int]]) -> int
    return 1

def tuple_call():
    return foo((1, 2))
''', [()]),
    ('''
def func(cond):
    a = 1
    b = 4
    c = 0
    d = "abc"
    e = "bcd"
    f = "abc"
    x = torch.ones([2])
    y = x * 4
    z = torch.ones([2])
    if bool(cond):
        c = b - a
    else:
        y = torch.rand(0)
        if bool(cond):
            y = torch.rand(1)
        print(d, e, f, x, y, z)
    b = b - a
    return a, b, c, x, y
''', [(torch.tensor([1]),), (torch.tensor([0]),)]),
    ('''
def typed_nones(a=None, b=None, c=None):
    # type: (Optional[int], Optional[bool], Optional[Tensor]) -> Tuple[Optional[int], Optional[bool], Optional[Tensor]] # noqa
    return a, b, c

def test(a):
    # type: (bool) -> None
    if a:
        print(typed_nones())
    else:
        print(typed_nones())
''', [(True,), (False,)]),
    ('''
def func1(a, b):
    c = a, b
    d, e = c
    return d + e
''', [(R4, R4 + 1)]),
    ('''
def func2(a, b):
    c = a, (a, b)
    d, e = c
    f, g = e
    return d + f + g
''', [(R4, R4 + 1)]),
    ('''
def func3(a, b):
    # type: (float, float) -> float
    c = 0., (0., 0.)
    x = True
    while x:
        x = False
        c = a, (a, b)
    d, e = c
    f, g = e
    return d + f + g
''', [(0.25, 0.5)]),
    ('''
def func(x):
    return x.sum(dim=[4]), x.sum(dim=4)
''', [(torch.zeros(1, 1, 1, 1, 4),)]),
    ('''
def foo(x):
    return torch.cat([x, x], dim=1), torch.cat([x], dim=1)
''', [(torch.ones(2, 3),)]),
    ('''
def reassign_arity_change():
    x = [1]
    if True:
        x = [1, 2, 3]
    return
''', [()]),
    ('''
def test_over_slice():
    a = [0, 1, 2, 3, 4]
    return a[3:10] == [3, 4]
''', [()]),
]

# test_exception.py (modern), test_list_dict.py TestDict, test_builtins' torch._check forms
CASES += [
    ('''
def fn():
    d = {"foo": 1, "bar": 2, "baz": 3}
    return {**d}
''', [()]),
    ('''
def tuple_fn():
    raise RuntimeError("hello", "goodbye")
''', [()]),
    ('''
def no_message():
    raise RuntimeError
''', [()]),
    ('''
class MyValueError(ValueError):
    pass

def fn():
    raise MyValueError("test custom exception")
''', [()]),
    ('''
def foo_decl_always_throws():
    # type: () -> Tensor
    raise Exception("Hi")
''', [()]),
    ('''
def foo():
    if 1 == 1:
        a = 1
    else:
        if 1 == 1:
            raise Exception("Hi")
        else:
            raise Exception("Hi")
    return a
''', [()]),
    ('''
def fn(x: Dict[int, int], y: int) -> int:
    return x.get(y, 3)
''', [({1: 2, 3: 4}, 3), ({1: 2, 3: 4}, 2)]),
    ('''
def optional(x: Dict[int, int], y: int) -> bool:
    res = x.get(y)
    return res is None
''', [({1: 2, 3: 4}, 3), ({1: 2, 3: 4}, 2)]),
    ('''
def fn(x: int) -> Dict[str, int]:
    a = torch.jit.annotate(Dict[str, int], {})
    for i in range(x):
        a["ok"] = i
    return a
''', [(10,)]),
    ('''
def f(x):
    torch._check(x.sum().item() > -1000, message="Tensor sum must be reasonable")
    return x
''', [(torch.tensor([1, 2, 3]),)]),
    ('''
def f(x):
    torch._check(message="Reversed order", cond=x.sum().item() > -1000)
    return x
''', [(torch.tensor([1, 2, 3]),)]),
    ('''
def f(xs: List[int]):
    s = {*xs, 5}
    return sorted(s)
''', [([1, 2, 2],)]),
]
